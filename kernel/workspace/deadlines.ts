/**
 * Deadlines of backend requests made on behalf of a tool call. A `sandbox/exec` lasts as
 * long as the command may (its own timeout), a `sandbox/runRead` as long as it may wait;
 * the margin covers killing the process group and carrying the output back. Everything else
 * keeps the backend plugin's default deadline.
 */
import type { ExecRunOperation, WorkspaceOperation } from '../../protocol/index.js';

/** Kill grace (SIGTERM → SIGKILL), a sandbox kill round trip, and the output transfer. */
export const BACKEND_DEADLINE_MARGIN_MS = 30_000;
/** What backends apply when an exec names no timeout. */
export const DEFAULT_EXEC_TIMEOUT_MS = 120_000;

export function backendRequestDeadline(method: WorkspaceOperation | ExecRunOperation, params: Record<string, unknown>): number | undefined {
  const options = (params.options ?? {}) as { timeoutMs?: unknown; waitMs?: unknown };
  if (method === 'exec') return (typeof options.timeoutMs === 'number' ? options.timeoutMs : DEFAULT_EXEC_TIMEOUT_MS) + BACKEND_DEADLINE_MARGIN_MS;
  if (method === 'runRead' && typeof options.waitMs === 'number') return options.waitMs + BACKEND_DEADLINE_MARGIN_MS;
  return undefined;
}
