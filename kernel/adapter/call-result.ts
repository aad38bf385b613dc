/**
 * The one result of a call through a run's tool set (`toolSet.execute`): what happened as
 * data (`outcome`, `code`, `retryable`, `isError`), so a host never parses text. These
 * fields are set by the kernel alone, at the top level of the result; a plugin writes only
 * `content` and `details`, so no tool can pass its own failure off as a kernel verdict.
 */
import type { ToolContent } from '../gate/types.js';

/** How a call ended. Every outcome but `ok` is an error result (`isError: true`). */
export type CallOutcome = 'ok' | 'tool_error' | 'blocked' | 'denied' | 'cancelled' | 'timed_out' | 'unavailable';

/** The codes the kernel itself gives; a tool's own error code can never be one of them. */
export const KERNEL_CALL_CODES = [
  'TOOL_ERROR', 'TOOL_FAILED', 'TOOL_ABORTED', 'INVALID_PARAMS',
  'PLUGIN_CRASHED', 'PLUGIN_TIMEOUT', 'PLUGIN_UNAVAILABLE', 'PLUGIN_STOPPED', 'CANCELLED',
  'UNKNOWN_TOOL', 'TOOL_REMOVED', 'TOOL_NOT_LOADED',
  'LOOP_DETECTED', 'HOOK_BLOCKED', 'POLICY_BLOCKED', 'POLICY_HOOK_FAILED', 'REQUIRED_PLUGIN_UNAVAILABLE',
  'APPROVAL_DENIED', 'APPROVAL_UNAVAILABLE', 'APPROVAL_TIMED_OUT', 'APPROVAL_CANCELLED', 'APPROVAL_FAILED', 'APPROVAL_VOID',
  'PARAMS_CHANGED_AFTER_APPROVAL',
] as const;

/** A kernel code, or a tool's own error code (e.g. `PATH_OUTSIDE_MOUNT`). */
export type CallCode = (typeof KERNEL_CALL_CODES)[number] | (string & {});

/** The one shape of an error, in `result.error` and in `result.details.error`. */
export interface CallError {
  code: CallCode;
  message: string;
  hint?: string;
}

/** The plugin behind an `unavailable` tool, as `kernel.plugins()` shows it. */
export interface PluginAvailability {
  id: string;
  state: string;
  lastError?: { code: string; message: string; at: string };
}

interface CallResultBase {
  /** What the model reads. */
  content: ToolContent[];
  /** Structured data: the tool's own (normalized `details.error`), or the kernel's for calls that did not run. */
  details?: Record<string, unknown>;
  /** The canonical tool name (aliases resolved). */
  toolName: string;
  toolCallId: string;
}

export interface OkCallResult extends CallResultBase {
  outcome: 'ok';
  isError: false;
  retryable: false;
  code?: undefined;
  error?: undefined;
  /** The tool's machine-readable result, when it declares an `outputSchema` (MCP clients get it). */
  structuredContent?: Record<string, unknown>;
}

export interface FailedCallResult extends CallResultBase {
  outcome: Exclude<CallOutcome, 'ok'>;
  isError: true;
  code: CallCode;
  /** True when the same call may succeed later without anyone changing anything (a plugin restarting). */
  retryable: boolean;
  error: CallError;
  /** The abort reason of a cancelled call, or the error behind a failure. Not serializable; not for the model. */
  cause?: unknown;
  /** For `unavailable` calls and plugin failures: the plugin's state and last error. */
  plugin?: PluginAvailability;
}

/** What `toolSet.execute` resolves to, for every call. */
export type CallResult = OkCallResult | FailedCallResult;

const RESERVED = new Set<string>(KERNEL_CALL_CODES);
// A tool's code is a short identifier; anything else is not a code a host could switch on.
const CODE_SHAPE = /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/;

/** A tool's own error code, or `TOOL_ERROR` when it has none or claims a kernel code. */
export function toolErrorCode(code: unknown): CallCode {
  // Compared upper-cased: `approval_denied` must not pass for the kernel's verdict either.
  return typeof code === 'string' && CODE_SHAPE.test(code) && !RESERVED.has(code.toUpperCase()) ? code : 'TOOL_ERROR';
}

/** Build a failed result; `details.error` and `error` are the same `{code, message, hint?}`. */
export function failedResult(
  base: { toolName: string; toolCallId: string },
  outcome: FailedCallResult['outcome'],
  error: CallError,
  extra: { content?: ToolContent[]; details?: Record<string, unknown>; retryable?: boolean; cause?: unknown; plugin?: PluginAvailability } = {},
): FailedCallResult {
  return {
    outcome,
    isError: true,
    code: error.code,
    retryable: extra.retryable ?? false,
    error,
    content: extra.content ?? [{ type: 'text', text: error.message }],
    details: { ...extra.details, error },
    toolName: base.toolName,
    toolCallId: base.toolCallId,
    ...(extra.cause !== undefined ? { cause: extra.cause } : {}),
    ...(extra.plugin ? { plugin: extra.plugin } : {}),
  };
}
