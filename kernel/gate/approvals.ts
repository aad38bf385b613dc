import { randomUUID } from 'node:crypto';
import { approvalDigest } from './approval-digest.js';
import {
  DEFAULT_APPROVAL_TIMEOUT_MS, MAX_APPROVAL_TIMEOUT_MS, type ApprovalSurface, type ApprovalSurfaceRequest,
} from './approval-surface.js';
import { CallPathError } from './errors.js';
import * as text from './messages.js';
import type { GateOutcome, GrantedApproval } from './outcome.js';
import type { ApprovalDecision, ApprovalRequest, ApprovalResolution, KernelTool, RunContext } from './types.js';

/** Everything needed to ask for one approval. */
export interface ApprovalAsk {
  request: ApprovalRequest;
  snapshot: Readonly<Record<string, unknown>>;
  tool: KernelTool;
  toolName: string;
  toolCallId: string;
  run: RunContext;
  /** The session's sandbox profile: part of what the approval is bound to. */
  sandboxProfile: unknown;
  surface?: ApprovalSurface;
  /** Digests granted with allow-always during this gate's life. */
  remembered: Set<string>;
  signal?: AbortSignal;
  /** Told when the surface is asked and when an answer is taken (never the params: the digest names them). */
  onEvent?: (event: ApprovalEvent) => void;
}

/** An approval asked for, or answered (`resolution`), for diagnostics and the audit trail. */
export interface ApprovalEvent {
  digest: string;
  /** The plugin or trusted policy that asked. */
  requestedBy?: string;
  resolution?: ApprovalResolution;
  remembered?: boolean;
}

const ALL_DECISIONS: ApprovalDecision[] = ['allow-once', 'allow-always', 'deny'];
const RESOLUTIONS = new Set<unknown>(['allow-once', 'allow-always', 'deny', 'timeout', 'cancelled']);

function approvalTimeout(request: ApprovalRequest): number {
  const ms = request.timeoutMs;
  if (typeof ms !== 'number' || !Number.isFinite(ms) || ms <= 0) return DEFAULT_APPROVAL_TIMEOUT_MS;
  return Math.min(Math.floor(ms), MAX_APPROVAL_TIMEOUT_MS);
}

function notify(request: ApprovalRequest, resolution: ApprovalResolution): void {
  // Fire-and-forget: a plugin's bookkeeping never changes the decision.
  try {
    void Promise.resolve(request.onResolution?.(resolution)).catch(() => undefined);
  } catch {
    /* ignored by contract */
  }
}

function fail(code: ConstructorParameters<typeof CallPathError>[0], message: string, extra: Partial<ConstructorParameters<typeof CallPathError>[2]> & { toolName: string }): GateOutcome {
  return { kind: 'failure', error: new CallPathError(code, message, { deniedReason: 'plugin-approval', ...extra }) };
}

/** Wait for the surface, our own timeout, or the call's cancellation, whichever comes first. */
async function waitForDecision(surface: ApprovalSurface, request: ApprovalSurfaceRequest, callSignal?: AbortSignal): Promise<unknown> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<ApprovalResolution>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), request.timeoutMs);
    onAbort = () => resolve('cancelled');
    if (callSignal?.aborted) onAbort();
    else callSignal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([surface.request(request, { signal: controller.signal }), stop]);
  } finally {
    clearTimeout(timer);
    if (onAbort) callSignal?.removeEventListener('abort', onAbort);
    controller.abort();
  }
}

/**
 * Ask the host's approval surface and map the answer to an outcome (SPEC §3.5): allow →
 * granted (bound to a digest); deny → failure; timeout/cancel → veto with the plugin's
 * timeoutReason, else failure. No surface → failure naming the run's trigger, never a hang.
 */
export async function requestApproval(ask: ApprovalAsk): Promise<GrantedApproval | GateOutcome> {
  const { request, snapshot, tool, toolName, run } = ask;
  const digest = approvalDigest(tool, snapshot, ask.sandboxProfile);
  const base = { toolName };
  const tell = (event: Omit<ApprovalEvent, 'digest' | 'requestedBy'>) => ask.onEvent?.({ digest, requestedBy: request.pluginId, ...event });
  if (ask.remembered.has(digest)) {
    tell({ resolution: 'allow-always', remembered: true });
    return { resolution: 'allow-always', pluginId: request.pluginId, digest, params: snapshot, remembered: true };
  }
  if (!ask.surface || ask.surface.canAsk?.({ toolCallId: ask.toolCallId, toolName }) === false) {
    return fail('APPROVAL_UNAVAILABLE', text.approvalUnavailable(run.trigger), { ...base, deniedReason: 'plugin-approval-unavailable' });
  }
  const allowedDecisions = request.allowedDecisions?.length ? request.allowedDecisions : ALL_DECISIONS;
  const surfaceRequest: ApprovalSurfaceRequest = {
    id: randomUUID(), toolName, toolCallId: ask.toolCallId, pluginId: request.pluginId,
    title: request.title, description: request.description, severity: request.severity ?? 'warning',
    allowedDecisions, params: snapshot, digest, timeoutMs: approvalTimeout(request),
    run: { runId: run.runId, sessionKey: run.sessionKey, agentId: run.agentId, trigger: run.trigger },
  };
  tell({});
  let answer: unknown;
  try {
    answer = await waitForDecision(ask.surface, surfaceRequest, ask.signal);
  } catch (cause) {
    notify(request, 'cancelled');
    return fail('APPROVAL_FAILED', text.APPROVAL_REQUEST_FAILED, { ...base, cause, disposition: 'failed' });
  }
  if (!RESOLUTIONS.has(answer)) {
    notify(request, 'cancelled');
    const cause = new Error(`approval surface answered ${JSON.stringify(answer) ?? typeof answer}`);
    return fail('APPROVAL_FAILED', text.APPROVAL_REQUEST_FAILED, { ...base, cause, disposition: 'failed' });
  }
  const resolution = answer as ApprovalResolution;
  notify(request, resolution);
  tell({ resolution });
  if (resolution === 'allow-once' || resolution === 'allow-always') {
    if (!allowedDecisions.includes(resolution)) {
      const cause = new Error(`decision ${resolution} was not offered (${allowedDecisions.join('|')})`);
      return fail('APPROVAL_FAILED', text.APPROVAL_REQUEST_FAILED, { ...base, cause, disposition: 'failed' });
    }
    if (resolution === 'allow-always') ask.remembered.add(digest);
    return { resolution, pluginId: request.pluginId, digest, params: snapshot, remembered: false };
  }
  if (resolution === 'deny') return fail('APPROVAL_DENIED', text.APPROVAL_DENIED, base);
  if (request.timeoutReason) return { kind: 'veto', code: 'APPROVAL_TIMED_OUT', deniedReason: 'plugin-approval', reason: request.timeoutReason };
  return resolution === 'timeout'
    ? fail('APPROVAL_TIMED_OUT', text.APPROVAL_TIMED_OUT, { ...base, disposition: 'timed_out' })
    : fail('APPROVAL_CANCELLED', text.APPROVAL_CANCELLED, { ...base, disposition: 'cancelled' });
}

/** Narrow the union returned by requestApproval. */
export function isGranted(value: GrantedApproval | GateOutcome): value is GrantedApproval {
  return 'digest' in value;
}
