/**
 * Approvals for `pincer serve`: the kernel's approval surface routes each request to the MCP
 * client whose call asked for it (by tool call id), which asks its user through MCP elicitation.
 * A client that did not declare elicitation, or a call from elsewhere, cannot be asked: the call
 * ends with the kernel's usual "no approval surface" refusal.
 */
import type { ApprovalDecision, ApprovalResolution, ApprovalSurface, ApprovalSurfaceRequest } from '../../kernel/gate/index.js';
import { escapeForTerminal } from '../../kernel/host/escape.js';

export type Asker = (request: ApprovalSurfaceRequest, signal: AbortSignal) => Promise<ApprovalResolution>;

export class ApprovalRouter implements ApprovalSurface {
  readonly #askers = new Map<string, Asker>();

  /** While a client's call runs, its approvals go to `asker`; returns the unregister function. */
  register(toolCallId: string, asker: Asker): () => void {
    this.#askers.set(toolCallId, asker);
    return () => this.#askers.delete(toolCallId);
  }

  canAsk(call: { toolCallId: string }): boolean {
    return this.#askers.has(call.toolCallId);
  }

  request(request: ApprovalSurfaceRequest, options: { signal: AbortSignal }): Promise<ApprovalResolution> {
    const asker = this.#askers.get(request.toolCallId);
    if (!asker) return Promise.reject(new Error(`no client is waiting for tool call ${request.toolCallId}`));
    return asker(request, options.signal);
  }
}

const LABELS: Record<ApprovalDecision, string> = { 'allow-once': 'Allow once', 'allow-always': 'Allow always (this session, this exact call)', deny: 'Deny' };
const MAX_PARAMS_CHARS = 2_000;

/** What the user reads: what asks, which tool with which arguments, and the digest the answer binds to. */
export function approvalMessage(request: ApprovalSurfaceRequest): string {
  const params = JSON.stringify(request.params, null, 2);
  // A hook's title and description may quote model-chosen arguments: no control sequence may redraw the question.
  const lines = [
    `${request.title}${request.pluginId ? ` (asked by plugin "${request.pluginId}")` : ''}`,
    request.description,
    `Tool: ${request.toolName}`,
    `Arguments: ${params.length > MAX_PARAMS_CHARS ? `${params.slice(0, MAX_PARAMS_CHARS)}…` : params}`,
    `Approval is bound to ${request.digest}: if the tool, the arguments or the sandbox change, it no longer applies.`,
  ];
  return escapeForTerminal(lines.join('\n'), { keepNewlines: true });
}

/** The elicitation schema: one required choice among the decisions offered. */
export function decisionSchema(request: ApprovalSurfaceRequest) {
  return {
    type: 'object' as const,
    properties: {
      decision: { type: 'string' as const, title: 'Decision', enum: request.allowedDecisions, enumNames: request.allowedDecisions.map((d) => LABELS[d]) },
    },
    required: ['decision'],
  };
}

/** An elicitation answer as a decision: accept with an offered choice, decline = deny, anything else = cancelled. */
export function decisionOf(request: ApprovalSurfaceRequest, answer: { action: string; content?: Record<string, unknown> }): ApprovalResolution {
  if (answer.action === 'decline') return 'deny';
  const decision = answer.content?.decision;
  if (answer.action === 'accept' && typeof decision === 'string' && (request.allowedDecisions as string[]).includes(decision)) return decision as ApprovalDecision;
  return 'cancelled';
}
