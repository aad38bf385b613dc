/**
 * Routes a tool plugin's workspace requests to the session's sandbox backend plugin.
 *
 * A session is one (agent, session key, placement), named by a handle (see
 * session-handles.ts): a tool call's context carries its session's handle, and a plugin may
 * address only handles it has been called for. So a plugin that served agent B cannot
 * reach agent A's workspace under the same key, a plugin that only served sandboxed
 * sessions cannot reach a host workspace, and a call in flight keeps its placement when
 * another agent's call reuses the key. A session stays addressable after the call returns,
 * because background runs (`exec` with `background: true`) outlive their call; a plugin
 * that served a session could have kept whatever it wanted from it anyway.
 */
import { ExecProgressValue, SANDBOX_METHODS, SANDBOX_RUN_METHODS, SandboxPrepare, type ExecRunOperation } from '../../protocol/index.js';
import { WORKSPACE_ERROR_CODES, directGrant, newDirectSecret, type WorkspaceChannel, type WorkspaceErrorCode, type WorkspaceOperation } from '../../protocol/index.js';
import type { PluginHost } from '../host/index.js';
import { resolveBackendPlugin } from './backends.js';
import { backendRequestDeadline } from './deadlines.js';
import { WorkspaceRoutingError } from './errors.js';
import { SessionHandles } from './session-handles.js';

/** Where one session's workspace lives. */
export interface SessionPlacement {
  agentId: string;
  backendId: string;
  workspaceDir?: string;
  readOnly?: boolean;
  /** Workspace-relative paths no mutating operation may touch (sent in `sandbox/prepare`). */
  protectedPaths?: readonly string[];
  /** Plugins that may serve the backend: those enabled for the agent (`undefined` = every configured plugin). */
  backendPlugins?: readonly string[];
  /** The plugin config names for this backend id (`backendPlugins.<id>`), if any. */
  backendPlugin?: string;
  /** Backend-specific creation parameters (`sandbox.docker`, `sandbox.ssh`). */
  backendConfig?: Record<string, unknown>;
}

interface Session {
  placement: SessionPlacement;
  sessionKey: string;
  /** Backend plugin, resolved on the first workspace request (a call that never touches the workspace needs none). */
  pluginId?: string;
  prepared?: Promise<unknown>;
  /** The extra prepare config the session was prepared with, and its JSON. */
  extra?: { value: Record<string, unknown> | undefined; json: string | undefined };
  /** The backend process the session was prepared in: a restarted backend knows no sessions. */
  preparedIn?: number;
  /** The direct channel the backend serves the session on since its last prepare, and the grants made for it (plugin → grant). */
  direct?: { socket: string; secret: string; grants: Map<string, string> };
}

/**
 * Config added to a session's `sandbox/prepare` beside its placement's (the read-only skill
 * mounts of a local session). When it changes, the session is prepared again.
 */
export type ExtraPrepareConfig = (placement: SessionPlacement) => Record<string, unknown> | undefined;

/** A workspace request that failed, as the audit trail hears of it. */
export interface WorkspaceFailure {
  /** The tool plugin that made the request. */
  pluginId: string;
  /** The backend plugin that refused it, once resolved. */
  backendPluginId?: string;
  agentId?: string;
  sessionKey?: string;
  operation: string;
  /** What the tool plugin receives (a WorkspaceRoutingError with the backend's code, or the error as is). */
  error: unknown;
}

/**
 * Told about each failed workspace request; a returned promise is awaited before the tool
 * plugin hears the failure (so a refusal is on record first). Must never reject.
 */
export type WorkspaceFailureSink = (failure: WorkspaceFailure) => Promise<void> | void;

/** A tool call bound to its session: the handle to put in the call's context, and the unbind. */
export interface BoundCall {
  session: string;
  /** Where the plugin may send the session's read-only requests directly, when it may (see #channelFor). */
  channel?: WorkspaceChannel;
  end: () => void;
}

/**
 * A backend's WorkspaceError reaches the kernel wrapped in a KernelError; hand its code and
 * the backend's own words back to the tool plugin, which explains them to the model.
 */
function keepWorkspaceCode(error: unknown): unknown {
  const data = (error as { data?: { code?: unknown } }).data;
  const cause = (error as { cause?: { message?: unknown } }).cause;
  if (typeof data?.code === 'string' && (WORKSPACE_ERROR_CODES as readonly string[]).includes(data.code)) {
    const message = typeof cause?.message === 'string' ? cause.message : (error as Error).message;
    return new WorkspaceRoutingError(data.code as WorkspaceErrorCode, message, { cause: error });
  }
  return error;
}

export class WorkspaceRouter {
  readonly #host: PluginHost;
  readonly #handles = new SessionHandles();
  /** handle → session. */
  readonly #sessions = new Map<string, Session>();
  /** pluginId → handle → number of that plugin's in-flight calls for the session. */
  readonly #active = new Map<string, Map<string, number>>();
  /** pluginId → handles of the sessions it has been called for. */
  readonly #served = new Map<string, Set<string>>();

  readonly #extraConfig?: ExtraPrepareConfig;
  readonly #onFailure?: WorkspaceFailureSink;
  /** Offer backends a direct channel in `sandbox/prepare` (KernelOptions.directChannel). */
  readonly #direct: boolean;

  constructor(host: PluginHost, extraConfig?: ExtraPrepareConfig, onFailure?: WorkspaceFailureSink, options: { directChannel?: boolean } = {}) {
    this.#host = host;
    this.#direct = options.directChannel ?? true;
    this.#extraConfig = extraConfig;
    this.#onFailure = onFailure;
    host.setWorkspaceHandler((pluginId, session, method, params, signal, onProgress) => this.#handleReported(pluginId, session, method, params, signal, onProgress));
    host.setDirectFailureHandler((backendPluginId, report) => this.#directFailure(backendPluginId, report));
  }

  async #handleReported(pluginId: string, named: string | undefined, method: WorkspaceOperation | ExecRunOperation, params: Record<string, unknown>, signal?: AbortSignal, onProgress?: (value: ExecProgressValue) => void): Promise<unknown> {
    try {
      return await this.handle(pluginId, named, method, params, signal, onProgress);
    } catch (error) {
      if (this.#onFailure) {
        const session = named === undefined ? undefined : this.#sessions.get(named);
        await this.#onFailure({ pluginId, backendPluginId: session?.pluginId, agentId: session?.placement.agentId, sessionKey: session?.sessionKey, operation: method, error });
      }
      throw error;
    }
  }

  /** Bind a tool call of `pluginId` to the session (agent, key, placement) for its duration. */
  beginCall(pluginId: string, sessionKey: string, placement: SessionPlacement): BoundCall {
    const handle = this.#handles.handleFor({ agentId: placement.agentId, sessionKey, placement });
    if (!this.#sessions.has(handle)) this.#sessions.set(handle, { placement, sessionKey });
    const served = this.#served.get(pluginId) ?? new Set<string>();
    this.#served.set(pluginId, served.add(handle));
    const byPlugin = this.#active.get(pluginId) ?? new Map<string, number>();
    this.#active.set(pluginId, byPlugin);
    byPlugin.set(handle, (byPlugin.get(handle) ?? 0) + 1);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      const count = (byPlugin.get(handle) ?? 1) - 1;
      if (count <= 0) byPlugin.delete(handle);
      else byPlugin.set(handle, count);
    };
    return { session: handle, channel: this.#channelFor(pluginId, handle, this.#sessions.get(handle)!), end };
  }

  /**
   * The direct channel grant of a plugin being called for the session: only once the session is
   * prepared, in the backend process still running, with the prepare config it would get now
   * (a session whose config changed is prepared again, by refreshDirectSessions or its next
   * routed request, which voids the grants made before). Until then the plugin's requests all
   * go through the kernel.
   */
  #channelFor(pluginId: string, handle: string, session: Session): WorkspaceChannel | undefined {
    const direct = session.direct;
    if (direct === undefined || session.pluginId === undefined) return undefined;
    if (session.preparedIn !== this.#host.pluginPid(session.pluginId)) return undefined;
    if (this.#extraConfig !== undefined && this.#extraConfig(session.placement) !== session.extra?.value) return undefined;
    let grant = direct.grants.get(pluginId);
    if (grant === undefined) direct.grants.set(pluginId, (grant = directGrant(direct.secret, handle, pluginId)));
    return { socket: direct.socket, plugin: pluginId, grant };
  }

  /**
   * A backend refused a direct request: on record (as a refused routed request would be) before
   * the backend answers the plugin. Only the session's own backend may report, and only for a
   * plugin that was called for the session.
   */
  async #directFailure(backendPluginId: string, report: { session: string; plugin: string; operation: string; code: WorkspaceErrorCode; message: string }): Promise<void> {
    const session = this.#sessions.get(report.session);
    if (!session || session.pluginId !== backendPluginId || !this.#served.get(report.plugin)?.has(report.session)) {
      throw new Error(`plugin "${backendPluginId}" reported a direct-channel refusal for a session and plugin it does not serve`);
    }
    await this.#onFailure?.({
      pluginId: report.plugin,
      backendPluginId,
      agentId: session.placement.agentId,
      sessionKey: session.sessionKey,
      operation: report.operation,
      error: new WorkspaceRoutingError(report.code, report.message),
    });
  }

  /** The session a request addresses: the named one if this plugin served it, else its only in-flight one. */
  #sessionFor(pluginId: string, named: string | undefined): [string, Session] {
    const active = this.#active.get(pluginId);
    const handle = named ?? (active?.size === 1 ? [...active.keys()][0] : undefined);
    if (handle === undefined) {
      throw new WorkspaceRoutingError('PATH_NOT_ADMITTED', `plugin "${pluginId}" made a workspace request without a session, outside a single tool call it is serving`);
    }
    const session = this.#sessions.get(handle);
    if (!session || !this.#served.get(pluginId)?.has(handle)) {
      throw new WorkspaceRoutingError('PATH_NOT_ADMITTED', `plugin "${pluginId}" addressed session "${handle}", which it has never been called for`);
    }
    return [handle, session];
  }

  /** `onProgress` hears an `exec`'s output so far, as the backend reports it (checked against the schema). */
  async handle(
    pluginId: string,
    named: string | undefined,
    method: WorkspaceOperation | ExecRunOperation,
    params: Record<string, unknown>,
    signal?: AbortSignal,
    onProgress?: (value: ExecProgressValue) => void,
  ): Promise<unknown> {
    const [handle, session] = this.#sessionFor(pluginId, named);
    const backendPlugin = await this.#ensurePrepared(handle, session);
    const { sessionKey: _ignored, progressToken: _plugins, ...rest } = params;
    const descriptor = method in SANDBOX_METHODS ? SANDBOX_METHODS[method as WorkspaceOperation] : SANDBOX_RUN_METHODS[method as ExecRunOperation];
    // A backend's report reaches the tool plugin only in the shape the protocol allows, like its result.
    const relay = method === 'exec' && onProgress ? (raw: unknown) => {
      const value = ExecProgressValue.safeParse(raw);
      if (value.success) onProgress(value.data);
    } : undefined;
    // The plugin's cancellation reaches the backend (which kills the command), and a long exec gets its own deadline.
    const opts = { signal, timeoutMs: backendRequestDeadline(method, rest), onProgress: relay };
    try {
      return await this.#host.invokeBackend(backendPlugin, descriptor, { ...rest, session: handle } as never, opts);
    } catch (error) {
      throw keepWorkspaceCode(error);
    }
  }

  /**
   * Prepares the session in its backend unless it is prepared there with the config it would
   * get now (its placement's, plus the extra config: skill mounts); the backend plugin.
   */
  async #ensurePrepared(handle: string, session: Session): Promise<string> {
    const { placement } = session;
    const backendPlugin = (session.pluginId ??= resolveBackendPlugin(this.#host.contributions(), placement));
    const extra = this.#extraConfig?.(placement);
    // Compared by identity first (the provider returns the same object while nothing changed).
    if (extra !== session.extra?.value) {
      const json = extra === undefined ? undefined : JSON.stringify(extra);
      if (json !== session.extra?.json) session.prepared = undefined;
      session.extra = { value: extra, json };
    }
    const config = extra === undefined ? placement.backendConfig : { ...placement.backendConfig, ...extra };
    const backendPid = () => this.#host.pluginPid(backendPlugin);
    if (session.preparedIn !== undefined && session.preparedIn !== backendPid()) session.prepared = session.preparedIn = undefined;
    if (session.prepared === undefined) {
      // A new prepare voids the direct grants made before it: its secret is new.
      session.direct = undefined;
      const socket = this.#direct ? this.#host.directSocketFor(backendPlugin) : undefined;
      const direct = socket === undefined ? undefined : { socket, secret: newDirectSecret() };
      session.prepared = this.#host
        .invokeBackend(backendPlugin, SandboxPrepare, {
          session: handle,
          backendId: placement.backendId,
          workspaceDir: placement.workspaceDir,
          readOnly: placement.readOnly,
          protectedPaths: placement.protectedPaths ? [...placement.protectedPaths] : undefined,
          config,
          direct,
        })
        .then((result) => {
          session.preparedIn = backendPid();
          if (direct && result.direct === true) session.direct = { ...direct, grants: new Map() };
        })
        .catch((error: unknown) => {
          // A failed prepare is retried by the next request instead of being cached forever.
          session.prepared = undefined;
          // A refused sandbox (SECURITY_VIOLATION…) reaches the tool with its code, like any workspace refusal.
          throw keepWorkspaceCode(error);
        });
    }
    await session.prepared;
    return backendPlugin;
  }

  /**
   * The extra prepare config may have changed (a skill source changed): prepare again now every
   * session served directly whose config changed, so no grant outlives the config it was made
   * under, even for a plugin that never calls again. Routed requests prepare again on their own.
   */
  refreshDirectSessions(): void {
    for (const [handle, session] of this.#sessions) {
      if (session.direct === undefined || this.#extraConfig?.(session.placement) === session.extra?.value) continue;
      this.#ensurePrepared(handle, session).catch(() => undefined); // a failed prepare is retried by the next request
    }
  }

  /** The session key a handle stands for (the audit trail names sessions by key). */
  sessionKeyOf(handle: string): string | undefined {
    return this.#sessions.get(handle)?.sessionKey;
  }

  /** The agent of a session `pluginId` has been called for (undefined for any other handle). */
  agentOf(pluginId: string, handle: string | undefined): string | undefined {
    if (handle === undefined || !this.#served.get(pluginId)?.has(handle)) return undefined;
    return this.#sessions.get(handle)?.placement.agentId;
  }

  /** Forget every session (their backends may keep sandboxes warm for reuse). */
  reset(): void {
    this.#handles.clear();
    this.#sessions.clear();
    this.#served.clear();
    this.#active.clear();
  }
}
