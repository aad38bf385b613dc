import { ResponseError, createMessageConnection, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  Handshake,
  HandshakeParams,
  Ping,
  type Contributions,
  ProtocolErrorCodes,
  SUPPORTED_PROTOCOL_VERSIONS,
  PluginStatusChanged,
  Shutdown,
  ToolsListChanged,
  type PluginComponentStatus,
  describeVersionMismatch,
  negotiateProtocolVersion,
  type MessageTransport,
} from '../../protocol/index.js';
import { pluginContributions, toolContribution } from '../plugin/define.js';
import type { PluginDefinition, ToolDefinition } from '../plugin/types.js';
import { createRemoteLogger } from './context.js';
import { registerChannelHandlers, registerNodeHandlers } from './channels.js';
import { registerHookHandlers, registerSandboxHandlers, registerSkillHandlers, registerTaskCancelHandler, registerTaskLedgerHandlers, registerToolHandlers, type PluginState } from './handlers.js';
import { createKernelClient } from './kernel-client.js';

/** A plugin bound to one connection: what serve() runs and what the test harness drives. @since 1 */
export interface PluginRuntime {
  readonly connection: MessageConnection;
  /** Replaces the plugin's tools and tells the kernel (`tools/listChanged`). */
  updateTools(tools: ToolDefinition<any>[]): Promise<void>;
  /** Reports the state of the plugin's own parts (shown in the kernel's plugin status). */
  reportStatus(components: PluginComponentStatus[]): Promise<void>;
  /** Settles when the connection closes. */
  readonly closed: Promise<void>;
  dispose(): void;
}

export interface BindOptions {
  /** Protocol versions this plugin speaks (tests override it to provoke a mismatch). */
  protocolVersions?: readonly number[];
  /** Called after `$/shutdown` has been answered. */
  onShutdown?: () => void;
}

const quietLogger = { error: () => undefined, warn: () => undefined, info: () => undefined, log: () => undefined };

/** Serves `plugin` on `transport`: handshake, dispatch, cancellation, shutdown. */
export function bindPlugin(plugin: PluginDefinition, transport: MessageTransport, options: BindOptions = {}): PluginRuntime {
  const conn = createMessageConnection(transport.reader, transport.writer, quietLogger);
  const state: PluginState = {
    ready: false,
    settings: {},
    tools: new Map((plugin.tools ?? []).map((t) => [t.name, t])),
    shutdown: new AbortController(),
    log: createRemoteLogger(conn),
  };
  const versions = options.protocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS;

  conn.onRequest(Handshake.type, async (raw) => {
    const params = HandshakeParams.safeParse(raw);
    if (!params.success) return new ResponseError(ProtocolErrorCodes.HandshakeFailed, `bad handshake params: ${params.error.message}`);
    const chosen = negotiateProtocolVersion(params.data.protocolVersions, versions);
    if (chosen === undefined) {
      const message = describeVersionMismatch({ pluginId: plugin.id, kernelVersions: params.data.protocolVersions, pluginVersions: versions });
      return new ResponseError(ProtocolErrorCodes.VersionMismatch, message, { pluginId: plugin.id, detail: { pluginVersions: versions } });
    }
    state.settings = params.data.settings;
    let served = plugin;
    try {
      const activated = await plugin.activate?.({ settings: state.settings, log: state.log, kernel: createKernelClient(conn) });
      if (activated?.tools) {
        served = { ...served, tools: activated.tools };
        state.tools = new Map(activated.tools.map((t) => [t.name, t]));
      }
      if (activated?.hooks) served = { ...served, hooks: (state.hooks = activated.hooks) };
    } catch (error) {
      return new ResponseError(ProtocolErrorCodes.HandshakeFailed, `plugin "${plugin.id}" failed to activate: ${(error as Error)?.message ?? error}`);
    }
    state.ready = true;
    return {
      protocolVersion: chosen,
      plugin: { id: plugin.id, version: plugin.version },
      capabilities: { toolsListChanged: true, cancellation: true, progress: true, ...(plugin.taskLedger ? { taskLedger: true } : {}) },
      // Lists left out are empty: the kernel reads the answer with the protocol's defaults.
      contributes: pluginContributions(served) as Contributions,
    };
  });

  conn.onRequest(Ping.type, () => null); // liveness: answered even while handlers are busy

  conn.onRequest(Shutdown.type, async () => {
    state.ready = false;
    state.shutdown.abort(new Error('shutdown'));
    try {
      await plugin.deactivate?.();
    } finally {
      setImmediate(() => options.onShutdown?.());
    }
    return null;
  });

  registerToolHandlers(conn, state);
  registerHookHandlers(conn, state, plugin);
  registerSandboxHandlers(conn, state, plugin);
  registerSkillHandlers(conn, state, plugin);
  registerTaskLedgerHandlers(conn, state, plugin);
  registerTaskCancelHandler(conn, state, plugin);
  registerChannelHandlers(conn, state, plugin);
  registerNodeHandlers(conn, state, plugin);

  const closed = new Promise<void>((resolve) => conn.onClose(() => resolve()));
  conn.listen();

  return {
    connection: conn,
    closed,
    async updateTools(tools) {
      state.tools = new Map(tools.map((t) => [t.name, t]));
      const family = plugin.family ?? plugin.id;
      await conn.sendNotification(ToolsListChanged.type, { tools: tools.map((t) => toolContribution(t, family)) });
    },
    async reportStatus(components) {
      await conn.sendNotification(PluginStatusChanged.type, { components });
    },
    dispose() {
      state.shutdown.abort(new Error('disposed'));
      conn.dispose();
    },
  };
}
