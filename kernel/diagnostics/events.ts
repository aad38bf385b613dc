/**
 * Diagnostics events of the call path. They identify a call and describe its fate;
 * they never carry raw params or output, so a subscriber cannot leak a secret by logging them.
 */

/** Fields every tool execution event carries. */
export interface ToolExecutionEventBase {
  /** Epoch milliseconds when the event was emitted. */
  ts: number;
  runId?: string;
  sessionKey?: string;
  agentId?: string;
  toolCallId: string;
  /** The normalized tool name (aliases resolved). */
  toolName: string;
  pluginId?: string;
}

/** The gate admitted the call and the tool is about to run. */
export interface ToolExecutionStartedEvent extends ToolExecutionEventBase {
  type: 'tool.execution.started';
}

/** The gate vetoed the call; the model received a structured "blocked" result. */
export interface ToolExecutionBlockedEvent extends ToolExecutionEventBase {
  type: 'tool.execution.blocked';
  /** `LOOP_DETECTED`, `HOOK_BLOCKED`, `POLICY_BLOCKED`, `REQUIRED_PLUGIN_UNAVAILABLE`, `APPROVAL_TIMED_OUT`… */
  code: string;
  deniedReason: string;
  reason: string;
  /** The plugin (hooks) or trusted policy id that blocked, when a handler did. */
  blockedBy?: string;
}

/**
 * The call never reached the gate: the run holds no tool by that name (unknown, removed by
 * policy, or its plugin is failed) or its arguments were not a JSON object.
 */
export interface ToolExecutionRejectedEvent extends ToolExecutionEventBase {
  type: 'tool.execution.rejected';
  /** `unavailable`, `denied` or `tool_error` (see the call outcome table). */
  outcome: string;
  /** `UNKNOWN_TOOL`, `TOOL_REMOVED`, `PLUGIN_UNAVAILABLE` or `INVALID_PARAMS`. */
  code: string;
}

/** Loop detection judged a call stuck: a warning (the call runs) or critical (it is blocked). */
export interface ToolLoopDetectedEvent extends ToolExecutionEventBase {
  type: 'tool.loop.detected';
  level: 'warning' | 'critical';
  detector: string;
  count: number;
  /** Set when the run has stopped making progress (the release's `argument_churn` signal): a host may end the run. */
  livenessSignal?: string;
}

/** The call failed: a gate failure (hook crash, approval denied…) or the tool threw. */
export interface ToolExecutionErrorEvent extends ToolExecutionEventBase {
  type: 'tool.execution.error';
  durationMs: number;
  /** Error classification, e.g. `CallPathError:APPROVAL_DENIED`, `aborted`, `TypeError`. */
  errorClass: string;
  /** Where it failed: `gate` (before the tool ran) or `tool`. */
  stage: 'gate' | 'tool';
}

/** The tool returned a result (which may itself be an error result). */
export interface ToolExecutionCompletedEvent extends ToolExecutionEventBase {
  type: 'tool.execution.completed';
  durationMs: number;
  isError: boolean;
}

/** A hook or trusted policy asked the operator; the approval is bound to `digest`. */
export interface ToolApprovalRequestedEvent extends ToolExecutionEventBase {
  type: 'tool.approval.requested';
  /** Binding digest of (tool definition, params, sandbox profile): what the answer applies to. */
  digest: string;
  /** The plugin (hooks) or trusted policy id that asked. */
  requestedBy?: string;
}

/** The operator's answer (or its absence) to an approval request. */
export interface ToolApprovalResolvedEvent extends ToolExecutionEventBase {
  type: 'tool.approval.resolved';
  digest: string;
  requestedBy?: string;
  resolution: 'allow-once' | 'allow-always' | 'deny' | 'timeout' | 'cancelled';
  /** True when an earlier allow-always for the same digest answered without asking. */
  remembered?: boolean;
}

/** Every diagnostics event, keyed by its `type`. */
export interface DiagnosticsEventMap {
  'tool.execution.started': ToolExecutionStartedEvent;
  'tool.execution.blocked': ToolExecutionBlockedEvent;
  'tool.execution.rejected': ToolExecutionRejectedEvent;
  'tool.loop.detected': ToolLoopDetectedEvent;
  'tool.execution.error': ToolExecutionErrorEvent;
  'tool.execution.completed': ToolExecutionCompletedEvent;
  'tool.approval.requested': ToolApprovalRequestedEvent;
  'tool.approval.resolved': ToolApprovalResolvedEvent;
}

export type DiagnosticsEventType = keyof DiagnosticsEventMap;
export type DiagnosticsEvent = DiagnosticsEventMap[DiagnosticsEventType];

/** An event without its base fields: what the emitting code fills in per event type. */
export type DiagnosticsEventBody = DiagnosticsEvent extends infer E
  ? E extends DiagnosticsEvent ? Omit<E, keyof ToolExecutionEventBase> : never
  : never;

/** Classify an error without keeping its message (messages may quote params). */
export function classifyError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'AbortError') return 'aborted';
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `${error.name}:${code}` : error.name;
  }
  return typeof error;
}
