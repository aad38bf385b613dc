import type { ApprovalDecision, ApprovalResolution } from './types.js';

/** What the operator is shown. Params are the frozen snapshot the approval will cover. */
export interface ApprovalSurfaceRequest {
  id: string;
  toolName: string;
  toolCallId: string;
  pluginId?: string;
  title: string;
  description: string;
  severity: 'info' | 'warning' | 'critical';
  allowedDecisions: ApprovalDecision[];
  params: Readonly<Record<string, unknown>>;
  /** The binding digest; surfaces may show it so operators can compare requests. */
  digest: string;
  timeoutMs: number;
  run: { runId?: string; sessionKey?: string; agentId?: string; trigger?: string };
}

/**
 * Supplied by the embedding host (chat channel, CLI prompt, web UI). Resolve with the
 * operator's decision, or `timeout`/`cancelled`. The signal aborts when the gate stops
 * waiting (its own timeout, or the call was cancelled).
 */
export interface ApprovalSurface {
  request(request: ApprovalSurfaceRequest, options: { signal: AbortSignal }): Promise<ApprovalResolution>;
  /**
   * Whether this surface can ask anyone about this call (an MCP client without elicitation, a CLI
   * without a terminal cannot); `false` ends the call as if there were no surface. Default: yes.
   */
  canAsk?(call: { toolCallId: string; toolName: string }): boolean;
}

/** Approval timeouts of the reference: 2 minutes by default, at most 10. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120_000;
export const MAX_APPROVAL_TIMEOUT_MS = 600_000;
