/**
 * A backend's operator method through the kernel, its failure as the CLI's error: the plugin's own
 * words (not the host's "plugin … answered with an error" wrapper) and the sandbox code for --json.
 */
import { CliError } from '../errors.js';
import type { Kernel } from '../kernel.js';

import type { SandboxAdminOperation, SandboxAdminRequest, SandboxAdminResult } from '../../kernel/index.js';

interface AdminFailure { code?: string; message?: string; data?: { code?: string; detail?: { code?: string; endpoint?: string } }; cause?: { message?: string } }

/** The sandbox code a failed admin call carries (BACKEND_UNAVAILABLE, IMAGE_MISSING, …), or the kernel's code. */
export function adminFailureCode(error: unknown): string | undefined {
  const e = (error ?? {}) as AdminFailure;
  return e.data?.detail?.code ?? e.data?.code ?? e.code;
}

/** The backend's message: a plugin's answer without the host's wrapper. */
export function adminFailureMessage(error: unknown): string {
  const e = (error ?? {}) as AdminFailure;
  return e.cause?.message ?? e.message ?? String(error);
}

export async function adminCall<K extends SandboxAdminOperation>(kernel: Kernel, op: K, request: SandboxAdminRequest<K>): Promise<SandboxAdminResult<K>> {
  try {
    return await kernel.sandboxAdmin(op, request);
  } catch (error) {
    if (error instanceof CliError) throw error;
    const e = (error ?? {}) as AdminFailure;
    throw new CliError('UNHEALTHY', adminFailureMessage(error), { cause: error, data: { sandboxCode: adminFailureCode(error), ...(e.data?.detail?.endpoint ? { endpoint: e.data.detail.endpoint } : {}) } });
  }
}
