/**
 * What each source of decisions becomes in the trail: the gate's diagnostics events (blocks,
 * refusals, approvals), the host's (plugin states, confinement denials) and the workspace
 * router's failed requests (sandbox refusals). Undefined: not a decision worth a record.
 */
import type { DiagnosticsEvent } from '../diagnostics/index.js';
import type { ConfinementDenial, PluginStateChange } from '../host/index.js';
import { isKernelError } from '../host/index.js';
import type { WorkspaceFailure } from '../workspace/router.js';
import { WorkspaceRoutingError } from '../workspace/errors.js';
import type { AuditEntry } from './record.js';

/** Workspace codes by which a backend (or the router) refuses a request, as opposed to failing it. */
const SANDBOX_REFUSALS = new Set(['SECURITY_VIOLATION', 'PATH_OUTSIDE_MOUNT', 'PATH_NOT_ADMITTED', 'READ_ONLY_MOUNT', 'PROTECTED_PATH', 'HARD_LINKED', 'POLICY_PATH_MISMATCH']);
/** Start failures that are the kernel refusing the plugin, not the plugin failing. */
const START_REFUSALS = new Set(['PLUGIN_LOCATION_REFUSED', 'CONFINEMENT_REFUSED', 'CONFINEMENT_UNAVAILABLE']);
/** The diagnostics events the trail subscribes to (never `started` or `completed`: nothing was decided). */
export const AUDITED_EVENTS = ['tool.execution.blocked', 'tool.execution.error', 'tool.approval.requested', 'tool.approval.resolved'] as const;

/** `CallPathError:APPROVAL_DENIED` → `APPROVAL_DENIED`. */
function codeOf(errorClass: string): string {
  return errorClass.includes(':') ? errorClass.slice(errorClass.indexOf(':') + 1) : errorClass;
}

export function fromDiagnostics(event: DiagnosticsEvent): AuditEntry | undefined {
  const base = { agent: event.agentId, session: event.sessionKey, run: event.runId, call: event.toolCallId, tool: event.toolName, plugin: event.pluginId };
  switch (event.type) {
    case 'tool.execution.blocked':
      return { kind: 'call.blocked', denied: true, ...base, code: event.code, reason: event.reason, by: event.blockedBy };
    case 'tool.execution.error':
      // A tool that failed while running is its own business; the gate refusing it is a decision.
      return event.stage === 'gate' ? { kind: 'call.refused', denied: true, ...base, code: codeOf(event.errorClass) } : undefined;
    case 'tool.approval.requested':
      return { kind: 'approval.requested', ...base, by: event.requestedBy, digest: event.digest };
    case 'tool.approval.resolved': {
      const allowed = event.resolution === 'allow-once' || event.resolution === 'allow-always';
      return { kind: 'approval.answered', ...(allowed ? {} : { denied: true as const }), ...base, by: event.requestedBy, digest: event.digest, answer: event.resolution, ...(event.remembered ? { remembered: true as const } : {}) };
    }
    default:
      return undefined;
  }
}

export function fromStateChange(change: PluginStateChange): AuditEntry {
  const refused = change.to === 'failed' && change.error !== undefined && START_REFUSALS.has(change.error.code);
  return { kind: 'plugin.state', ...(refused ? { denied: true as const } : {}), plugin: change.pluginId, from: change.from, to: change.to, code: change.error?.code, reason: change.error?.message };
}

export function fromConfinementDenial(denial: ConfinementDenial, sessionKey?: string): AuditEntry {
  return {
    kind: 'confinement.denied', denied: true, plugin: denial.pluginId, tool: denial.tool, agent: denial.agentId,
    session: sessionKey, call: denial.toolCallId, code: 'CONFINEMENT_DENIED', reason: denial.message,
  };
}

export function fromWorkspaceFailure(failure: WorkspaceFailure): AuditEntry | undefined {
  const { error } = failure;
  // A confined backend (sandbox-local under bubblewrap) can be denied like any plugin.
  if (isKernelError(error, 'CONFINEMENT_DENIED')) {
    return fromConfinementDenial({ pluginId: failure.backendPluginId ?? error.pluginId ?? failure.pluginId, message: error.message, agentId: failure.agentId }, failure.sessionKey);
  }
  if (!(error instanceof WorkspaceRoutingError) || !SANDBOX_REFUSALS.has(error.workspaceCode)) return undefined;
  return {
    kind: 'sandbox.refused', denied: true, plugin: failure.pluginId, backend: failure.backendPluginId, agent: failure.agentId,
    session: failure.sessionKey, operation: failure.operation, code: error.workspaceCode, reason: error.message,
  };
}
