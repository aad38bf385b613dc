import { isPlainObject } from './params.js';
import type { ApprovalDecision, ApprovalRequest, TrustedPolicyDecision } from './types.js';

/** A handler answered something the gate cannot read; the call fails closed. */
export class InvalidHookResultError extends Error {
  override readonly name = 'InvalidHookResultError';
}

const DECISIONS: readonly ApprovalDecision[] = ['allow-once', 'allow-always', 'deny'];

function describe(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

function readApproval(value: unknown, source: string): ApprovalRequest {
  if (!isPlainObject(value) || typeof value.title !== 'string' || typeof value.description !== 'string') {
    throw new InvalidHookResultError(`${source} returned requireApproval without a string title and description`);
  }
  const allowed = value.allowedDecisions;
  if (allowed !== undefined && (!Array.isArray(allowed) || !allowed.every((d) => DECISIONS.includes(d)))) {
    throw new InvalidHookResultError(`${source} returned requireApproval.allowedDecisions outside allow-once|allow-always|deny`);
  }
  return value as unknown as ApprovalRequest;
}

/**
 * Check a handler's answer. `undefined`/`null` mean "no opinion". Anything else must be a
 * plain object whose known fields have the right types; otherwise the gate cannot tell what
 * the handler wanted, and guessing would fail open.
 */
export function readHandlerResult(value: unknown, source: string): TrustedPolicyDecision | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) throw new InvalidHookResultError(`${source} returned ${describe(value)} instead of an object`);
  const { block, allow, blockReason, params, requireApproval } = value;
  if (block !== undefined && typeof block !== 'boolean') throw new InvalidHookResultError(`${source} returned a non-boolean block`);
  if (allow !== undefined && typeof allow !== 'boolean') throw new InvalidHookResultError(`${source} returned a non-boolean allow`);
  if (blockReason !== undefined && typeof blockReason !== 'string') {
    throw new InvalidHookResultError(`${source} returned a non-string blockReason`);
  }
  if (params !== undefined && !isPlainObject(params)) {
    throw new InvalidHookResultError(`${source} returned params that are ${describe(params)}, not an object`);
  }
  return {
    block,
    allow,
    blockReason,
    params,
    requireApproval: requireApproval === undefined ? undefined : readApproval(requireApproval, source),
  };
}
