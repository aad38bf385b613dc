import type { MessageConnection } from 'vscode-jsonrpc/node';
import { createStreamTransport, type PluginComponentStatus, type ToolContribution } from '../../protocol/index.js';
import type { PluginConfig } from './config.js';
import { openPluginConnection, type WorkspaceHandler } from './connection.js';
import { buildPluginEnv } from './env.js';
import type { HostLogger } from './logger.js';
import { spawnFailed, spawnPlugin, type SpawnedPlugin } from './spawn.js';
import { forwardLines } from './stdio-log.js';

/** A running plugin process with its output forwarded and its RPC connection open. */
export interface PluginProcess {
  proc: SpawnedPlugin;
  conn: MessageConnection;
}

export interface PluginProcessEvents {
  onToolsChanged: (tools: ToolContribution[]) => void;
  onStatusChanged?: (components: PluginComponentStatus[]) => void;
  onTransportError: (error: Error) => void;
  onClose: () => void;
}

/**
 * Spawns one plugin process (allow-listed env, own process group), forwards its stdout/stderr
 * lines to the logger and opens the connection. Throws SPAWN_FAILED when nothing started.
 */
export async function startPluginProcess(
  config: PluginConfig,
  deps: { logger: HostLogger; inheritEnv?: readonly string[]; workspace: () => WorkspaceHandler | undefined },
  events: PluginProcessEvents,
): Promise<PluginProcess> {
  const proc = spawnPlugin(config, buildPluginEnv(config, { inherit: deps.inheritEnv }));
  if (proc.pid < 0) throw spawnFailed(config, (await proc.exited).error);
  if (proc.stdout) forwardLines(proc.stdout, config.id, 'info', deps.logger);
  forwardLines(proc.stderr, config.id, 'info', deps.logger);
  const transport = createStreamTransport(proc.rpcIn, proc.rpcOut, { peer: `plugin "${config.id}"`, maxMessageBytes: config.maxMessageBytes });
  const conn = openPluginConnection(transport, { pluginId: config.id, logger: deps.logger, workspace: deps.workspace, ...events });
  return { proc, conn };
}
