/**
 * From how a call through the gate ended (`GatedCall`) to the call's one result. The table
 * this implements is in docs/embedding.md; every row has a test in test/callpath/outcomes.test.ts.
 */
import { isCallPathError, type CallPathError, type CallPathErrorCode } from '../gate/errors.js';
import type { GatedCall } from '../gate/execute-gated.js';
import type { ToolResult } from '../gate/types.js';
import { isKernelError, type KernelError } from '../host/errors.js';
import { isPlainObject } from '../shared/plain-object.js';
import { failedResult, toolErrorCode, type CallError, type CallResult, type FailedCallResult, type PluginAvailability } from './call-result.js';
import { normalizeToolResult } from './results.js';

export interface CallClassification {
  toolName: string;
  toolCallId: string;
  signal?: AbortSignal;
  /** The named plugin's state and last error, for `unavailable` and crash results. */
  pluginAvailability(pluginId: string): PluginAvailability | undefined;
  /** Told about a tool-side failure the host should see in its logs (not cancellations, not verdicts). */
  onToolFailure?(message: string, params: unknown): void;
}

const CALL_PATH_OUTCOMES: Partial<Record<CallPathErrorCode, FailedCallResult['outcome']>> = {
  APPROVAL_DENIED: 'denied',
  APPROVAL_TIMED_OUT: 'timed_out',
  APPROVAL_CANCELLED: 'cancelled',
  INVALID_PARAMS: 'tool_error',
};

const MAX_MESSAGE_FROM_TEXT = 2000;

function messageOf(error: unknown): string {
  return error instanceof Error && error.message.trim() ? error.message : String(error);
}

/** A cancelled call: the caller's signal aborted. Its reason is kept as `cause`. */
function cancelled(c: CallClassification): FailedCallResult {
  const reason = c.signal?.reason;
  const message = `The call was cancelled${reason instanceof Error && reason.message ? `: ${reason.message}` : ''}; the tool may not have finished.`;
  return failedResult(c, 'cancelled', { code: 'CANCELLED', message }, { cause: reason });
}

/** `details.error` of a tool's error result in the one shape, whatever the tool wrote there. */
function toolError(result: ToolResult): CallError {
  const raw = result.details?.error;
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('\n').trim();
  if (isPlainObject(raw) && typeof raw.message === 'string') {
    return { code: toolErrorCode(raw.code), message: raw.message, ...(typeof raw.hint === 'string' ? { hint: raw.hint } : {}) };
  }
  const message = typeof raw === 'string' && raw.trim() ? raw : text.slice(0, MAX_MESSAGE_FROM_TEXT) || 'The tool reported an error.';
  return { code: toolErrorCode(isPlainObject(raw) ? raw.code : undefined), message };
}

function fromRan(result: ToolResult, c: CallClassification): CallResult {
  const normalized = normalizeToolResult(c.toolName, result);
  if (normalized.isError !== true) {
    return { outcome: 'ok', isError: false, retryable: false, content: normalized.content, ...(normalized.details ? { details: normalized.details } : {}), toolName: c.toolName, toolCallId: c.toolCallId };
  }
  if (c.signal?.aborted) return cancelled(c);
  const error = toolError(normalized);
  return { ...failedResult(c, 'tool_error', error, { content: normalized.content, details: normalized.details }) };
}

function fromCallPathError(error: CallPathError, c: CallClassification): FailedCallResult {
  if (c.signal?.aborted) return cancelled(c);
  const outcome = CALL_PATH_OUTCOMES[error.code] ?? 'blocked';
  const details = { status: outcome === 'blocked' ? 'blocked' : 'error', deniedReason: error.deniedReason, disposition: error.disposition };
  return failedResult(c, outcome, { code: error.code, message: error.message }, { details, cause: error });
}

function fromKernelError(error: KernelError, c: CallClassification, params: unknown): FailedCallResult {
  const plugin = error.pluginId ? c.pluginAvailability(error.pluginId) : undefined;
  const extra = { cause: error, ...(plugin ? { plugin } : {}) };
  const jsonDetails = (code: string) => ({ status: 'error', tool: c.toolName, error: { code, message: error.message } });
  switch (error.code) {
    case 'PLUGIN_TIMEOUT':
      return failedResult(c, 'timed_out', { code: 'PLUGIN_TIMEOUT', message: error.message }, extra);
    // Missed its deadline and then a liveness ping: the host restarts it, so a retry may succeed.
    case 'PLUGIN_UNRESPONSIVE':
      return failedResult(c, 'timed_out', { code: 'PLUGIN_UNRESPONSIVE', message: error.message }, { ...extra, retryable: true });
    // The operator's configuration keeps this plugin from starting (its code lies where an agent can write).
    case 'PLUGIN_LOCATION_REFUSED':
    case 'PLUGIN_NOT_FOUND':
      return failedResult(c, 'unavailable', { code: error.code, message: error.message }, { ...extra, retryable: false });
    case 'PLUGIN_STOPPED':
      return failedResult(c, 'cancelled', { code: 'PLUGIN_STOPPED', message: error.message }, extra);
    case 'PLUGIN_FAILED':
    case 'PLUGIN_NOT_READY': {
      const restarting = plugin?.state === 'restarting' || plugin?.state === 'starting';
      return failedResult(c, 'unavailable', { code: 'PLUGIN_UNAVAILABLE', message: error.message }, { ...extra, retryable: restarting });
    }
    default: {
      // The plugin answered "cancelled" although nobody cancelled: its own failure, not a cancellation.
      const code = error.code === 'CANCELLED' ? 'TOOL_ABORTED' : error.code === 'WORKSPACE_ERROR' ? toolErrorCode(error.data?.code) : error.code;
      c.onToolFailure?.(error.message, params);
      const details = jsonDetails(code);
      return failedResult(c, 'tool_error', details.error, { ...extra, content: [{ type: 'text', text: JSON.stringify(details, null, 2) }], details, retryable: error.code === 'PLUGIN_CRASHED' });
    }
  }
}

function fromThrown(error: unknown, c: CallClassification, params: unknown): CallResult {
  if (c.signal?.aborted) return cancelled(c);
  if (isKernelError(error)) return fromKernelError(error, c, params);
  // 9.13: an AbortError while the caller's signal is not aborted is the tool's own failure.
  const code = error instanceof Error && error.name === 'AbortError' ? 'TOOL_ABORTED' : 'TOOL_FAILED';
  c.onToolFailure?.(messageOf(error), params);
  const details = { status: 'error', tool: c.toolName, error: { code, message: messageOf(error) } };
  return failedResult(c, 'tool_error', details.error, { content: [{ type: 'text', text: JSON.stringify(details, null, 2) }], details, cause: error });
}

/** The call's result, from how it ended in the gate. */
export function classifyGatedCall(call: GatedCall, c: CallClassification): CallResult {
  switch (call.kind) {
    case 'ran':
      return fromRan(call.result, c);
    case 'threw':
      return fromThrown(call.error, c, call.params);
    case 'vetoed':
      if (c.signal?.aborted) return cancelled(c);
      return failedResult(c, call.code === 'APPROVAL_TIMED_OUT' ? 'timed_out' : 'blocked', { code: call.code, message: call.reason }, { details: call.result.details });
    case 'failed':
      return isCallPathError(call.error) ? fromCallPathError(call.error, c) : fromThrown(call.error, c, undefined);
  }
}
