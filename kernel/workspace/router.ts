/**
 * Routes a tool plugin's workspace requests to the session's sandbox backend plugin.
 *
 * A plugin may address only a session it is serving a call for right now: the router
 * binds each in-flight tool call to its session, so a plugin cannot reach another
 * session's workspace (a sandboxed session's tool cannot escape to the host workspace
 * of a main session by naming it).
 */
import { SANDBOX_METHODS, SandboxPrepare } from '../../protocol/index.js';
import type { WorkspaceOperation } from '../../protocol/index.js';
import type { PluginHost } from '../host/index.js';
import { buildBackendRegistry, missingBackendMessage, normalizeBackendId } from './backends.js';
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
}

export class WorkspaceRouter {
  readonly #host: PluginHost;
  readonly #sessions = new Map<string, Session>();
  /** pluginId → sessionKey → number of that plugin's in-flight calls for the session. */
  readonly #active = new Map<string, Map<string, number>>();

  constructor(host: PluginHost) {
    this.#host = host;
    host.setWorkspaceHandler((pluginId, sessionKey, method, params) => this.handle(pluginId, sessionKey, method, params));
  }

  /** Bind a tool call of `pluginId` to a session for its duration; returns the unbind. */
  beginCall(pluginId: string, sessionKey: string, placement: SessionPlacement): () => void {
    const existing = this.#sessions.get(sessionKey);
    if (!existing || existing.placement.backendId !== placement.backendId || existing.placement.workspaceDir !== placement.workspaceDir) {
      this.#sessions.set(sessionKey, { placement });
    }
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

  /** The session a request addresses: the named one if this plugin serves it now, or its only one. */
  #sessionFor(pluginId: string, sessionKey: string | undefined): [string, Session] {
    const active = this.#active.get(pluginId);
    const key = sessionKey ?? (active?.size === 1 ? [...active.keys()][0] : undefined);
    if (key === undefined || !active?.has(key)) {
      throw new WorkspaceRoutingError(
        'PATH_NOT_ADMITTED',
        sessionKey === undefined
          ? `plugin "${pluginId}" made a workspace request outside any tool call it is serving`
          : `plugin "${pluginId}" addressed session "${sessionKey}", which none of its in-flight tool calls belongs to`,
      );
    }
    return [key, this.#sessions.get(key)!];
  }

  async handle(pluginId: string, sessionKey: string | undefined, method: WorkspaceOperation, params: Record<string, unknown>): Promise<unknown> {
    const [key, session] = this.#sessionFor(pluginId, sessionKey);
    const { placement } = session;
    const backendPlugin = (session.pluginId ??= this.#backendPlugin(placement));
    session.prepared ??= this.#host
      .invokeBackend(backendPlugin, SandboxPrepare, {
        session: key,
        backendId: placement.backendId,
        workspaceDir: placement.workspaceDir,
        readOnly: placement.readOnly,
        config: placement.backendConfig,
      })
      .catch((error: unknown) => {
        // A failed prepare is retried by the next request instead of being cached forever.
        session.prepared = undefined;
        throw error;
      });
    await session.prepared;
    const { sessionKey: _ignored, ...rest } = params;
    return this.#host.invokeBackend(backendPlugin, SANDBOX_METHODS[method], { ...rest, session: key } as never);
  }

  /** Forget every session (their backends may keep sandboxes warm for reuse). */
  reset(): void {
    this.#sessions.clear();
  }
}
