import type { MessageConnection } from 'vscode-jsonrpc/node';
import { createStreamTransport, type SkillsListChangedParams } from '../../protocol/index.js';
import type { PluginConfig } from './config.js';
import { openPluginConnection, type WorkspaceHandler } from './connection.js';
import { buildPluginEnv } from './env.js';
import type { PluginLogSink } from './plugin-log.js';
import { spawnFailed, spawnPlugin, type SpawnedPlugin } from './spawn.js';
import { forwardLines } from './stdio-log.js';

/** A running plugin process with its output forwarded and its RPC connection open. */
export interface PluginProcess {
  proc: SpawnedPlugin;
  conn: MessageConnection;
}

export interface PluginProcessEvents {
  onToolsChanged: (tools: unknown) => void;
  onSkillsChanged: (change: SkillsListChangedParams) => void;
  onTransportError: (error: Error) => void;
  onClose: () => void;
}

/**
 * Spawns one plugin process (allow-listed env, own process group), forwards its stdout/stderr
 * lines to its log sink and opens the connection. Throws SPAWN_FAILED when nothing started.
 */
export async function startPluginProcess(
  config: PluginConfig,
  deps: { log: PluginLogSink; inheritEnv?: readonly string[]; workspace: () => WorkspaceHandler | undefined },
  launch: { cwd: string; env: Record<string, string> },
  events: PluginProcessEvents,
): Promise<PluginProcess> {
  const proc = spawnPlugin(config, { ...buildPluginEnv(config, { inherit: deps.inheritEnv }), ...launch.env }, launch.cwd);
  if (proc.pid < 0) throw spawnFailed(config, (await proc.exited).error);
  if (proc.stdout) forwardLines(proc.stdout, deps.log, 'info');
  forwardLines(proc.stderr, deps.log, 'info');
  const transport = createStreamTransport(proc.rpcIn, proc.rpcOut, { peer: `plugin "${config.id}"`, maxMessageBytes: config.maxMessageBytes });
  const conn = openPluginConnection(transport, { pluginId: config.id, log: deps.log, workspace: deps.workspace, ...events });
  return { proc, conn };
}
