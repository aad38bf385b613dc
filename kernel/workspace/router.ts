/**
 * Routes a tool plugin's workspace requests to the session's sandbox backend plugin.
 *
 * A plugin may address only sessions it has been called for: the router binds each tool
 * call to its session, so a plugin that only ever served sandboxed sessions cannot reach a
 * main session's host workspace by naming it. A session stays addressable after the call
 * returns, because background runs (`exec` with `background: true`) outlive their call; a
 * plugin that served a session could have kept whatever it wanted from it anyway.
 */
import { SANDBOX_METHODS, SANDBOX_RUN_METHODS, SandboxPrepare, type ExecRunOperation } from '../../protocol/index.js';
import { WORKSPACE_ERROR_CODES, type WorkspaceErrorCode, type WorkspaceOperation } from '../../protocol/index.js';
import type { PluginHost } from '../host/index.js';
import { buildBackendRegistry, missingBackendMessage, normalizeBackendId } from './backends.js';
import { backendRequestDeadline } from './deadlines.js';
import { WorkspaceRoutingError } from './errors.js';

/** Where one session's workspace lives. */
export interface SessionPlacement {
  agentId: string;
  backendId: string;
  workspaceDir?: string;
  readOnly?: boolean;
  /** Backend-specific creation parameters (`sandbox.docker`, `sandbox.ssh`). */
  backendConfig?: Record<string, unknown>;
}

interface Session {
  placement: SessionPlacement;
  /** Backend plugin, resolved on the first workspace request (a call that never touches the workspace needs none). */
  pluginId?: string;
  prepared?: Promise<unknown>;
  /** The backend process the session was prepared in: a restarted backend knows no sessions. */
  preparedIn?: number;
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
  readonly #sessions = new Map<string, Session>();
  /** pluginId → sessionKey → number of that plugin's in-flight calls for the session. */
  readonly #active = new Map<string, Map<string, number>>();
  /** pluginId → sessions it has been called for. */
  readonly #served = new Map<string, Set<string>>();

  constructor(host: PluginHost) {
    this.#host = host;
    host.setWorkspaceHandler((pluginId, sessionKey, method, params, signal) => this.handle(pluginId, sessionKey, method, params, signal));
  }

  /** Bind a tool call of `pluginId` to a session for its duration; returns the unbind. */
  beginCall(pluginId: string, sessionKey: string, placement: SessionPlacement): () => void {
    const existing = this.#sessions.get(sessionKey);
    if (!existing || existing.placement.backendId !== placement.backendId || existing.placement.workspaceDir !== placement.workspaceDir) {
      this.#sessions.set(sessionKey, { placement });
    }
    const served = this.#served.get(pluginId) ?? new Set<string>();
    this.#served.set(pluginId, served.add(sessionKey));
    const byPlugin = this.#active.get(pluginId) ?? new Map<string, number>();
    this.#active.set(pluginId, byPlugin);
    byPlugin.set(sessionKey, (byPlugin.get(sessionKey) ?? 0) + 1);
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const count = (byPlugin.get(sessionKey) ?? 1) - 1;
      if (count <= 0) byPlugin.delete(sessionKey);
      else byPlugin.set(sessionKey, count);
    };
  }

  /** Throws the operator-shaped error when no plugin provides the placement's backend. */
  #backendPlugin(placement: SessionPlacement): string {
    const registry = buildBackendRegistry(this.#host.contributions());
    const entry = registry.get(normalizeBackendId(placement.backendId));
    if (!entry) throw new WorkspaceRoutingError('IO_ERROR', missingBackendMessage(placement.backendId, placement.agentId, registry.keys()));
    return entry.pluginId;
  }

  /** The session a request addresses: the named one if this plugin served it, else its only in-flight one. */
  #sessionFor(pluginId: string, sessionKey: string | undefined): [string, Session] {
    const active = this.#active.get(pluginId);
    const key = sessionKey ?? (active?.size === 1 ? [...active.keys()][0] : undefined);
    if (key === undefined) {
      throw new WorkspaceRoutingError('PATH_NOT_ADMITTED', `plugin "${pluginId}" made a workspace request without a session, outside a single tool call it is serving`);
    }
    const session = this.#sessions.get(key);
    if (!session || !this.#served.get(pluginId)?.has(key)) {
      throw new WorkspaceRoutingError('PATH_NOT_ADMITTED', `plugin "${pluginId}" addressed session "${key}", which it has never been called for`);
    }
    return [key, session];
  }

  async handle(pluginId: string, sessionKey: string | undefined, method: WorkspaceOperation | ExecRunOperation, params: Record<string, unknown>, signal?: AbortSignal): Promise<unknown> {
    const [key, session] = this.#sessionFor(pluginId, sessionKey);
    const { placement } = session;
    const backendPlugin = (session.pluginId ??= this.#backendPlugin(placement));
    const backendPid = () => this.#host.pluginStatus(backendPlugin).pid;
    if (session.preparedIn !== undefined && session.preparedIn !== backendPid()) session.prepared = session.preparedIn = undefined;
    session.prepared ??= this.#host
      .invokeBackend(backendPlugin, SandboxPrepare, {
        session: key,
        backendId: placement.backendId,
        workspaceDir: placement.workspaceDir,
        readOnly: placement.readOnly,
        config: placement.backendConfig,
      })
      .then(() => {
        session.preparedIn = backendPid();
      })
      .catch((error: unknown) => {
        // A failed prepare is retried by the next request instead of being cached forever.
        session.prepared = undefined;
        throw error;
      });
    await session.prepared;
    const { sessionKey: _ignored, ...rest } = params;
    const descriptor = method in SANDBOX_METHODS ? SANDBOX_METHODS[method as WorkspaceOperation] : SANDBOX_RUN_METHODS[method as ExecRunOperation];
    // The plugin's cancellation reaches the backend (which kills the command), and a long exec gets its own deadline.
    const opts = { signal, timeoutMs: backendRequestDeadline(method, rest) };
    try {
      return await this.#host.invokeBackend(backendPlugin, descriptor, { ...rest, session: key } as never, opts);
    } catch (error) {
      throw keepWorkspaceCode(error);
    }
  }

  /** Forget every session (their backends may keep sandboxes warm for reuse). */
  reset(): void {
    this.#sessions.clear();
    this.#served.clear();
    this.#active.clear();
  }
}
