import { SandboxError } from './errors.js';

/** The one shape of a sandbox security refusal (SECURITY_VIOLATION). */

const PREFIX = 'Sandbox security:';
export const TRUST_FIX = 'Use a dangerous override only when you fully trust this runtime.';

/**
 * `what` is the refusal, `fix` the operator's way out. The fix stays out of `data.summary`,
 * which is all a model is shown (toWireError): it must not be coached to lift a fence.
 */
export function securityViolation(what: string, fix: string, data: Record<string, unknown>): SandboxError {
  return new SandboxError('SECURITY_VIOLATION', `${PREFIX} ${what}. ${fix}`, { data: { ...data, summary: `${PREFIX} ${what}.` } });
}
