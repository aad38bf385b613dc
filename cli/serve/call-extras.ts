/**
 * What a `tools/call` of `pincer serve` does beside running the tool: progress notifications
 * (with the text so far) when the client sent a progress token, and approvals asked of the client
 * through elicitation when it declared the capability.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import type { ApprovalRouter } from './approvals.js';
import { approvalMessage, decisionOf, decisionSchema } from './approvals.js';

/** Relays tool progress as `notifications/progress`, keeping `progress` strictly increasing as MCP requires. */
export function progressRelay(token: string | number | undefined, send: (notification: ServerNotification) => Promise<void>): ((value: unknown) => void) | undefined {
  if (token === undefined) return undefined;
  let last = 0;
  return (value) => {
    const report = (value && typeof value === 'object' ? value : {}) as { progress?: unknown; total?: unknown; message?: unknown };
    last = typeof report.progress === 'number' && report.progress > last ? report.progress : last + 1;
    const params = {
      progressToken: token,
      progress: last,
      ...(typeof report.total === 'number' && report.total >= last ? { total: report.total } : {}),
      ...(typeof report.message === 'string' ? { message: report.message } : {}),
    };
    void send({ method: 'notifications/progress', params }).catch(() => undefined);
  };
}

/** Registers the client as the approver of this call when it can elicit; returns the unregister function. */
export function askClientForApprovals(server: Server, approvals: ApprovalRouter | undefined, toolCallId: string): () => void {
  const elicitation = server.getClientCapabilities()?.elicitation as { form?: unknown } | undefined;
  if (!approvals || !elicitation) return () => undefined;
  return approvals.register(toolCallId, async (request, signal) => {
    const answer = await server.elicitInput({ mode: 'form', message: approvalMessage(request), requestedSchema: decisionSchema(request) }, { signal, timeout: request.timeoutMs });
    return decisionOf(request, answer);
  });
}
