import { statSync } from 'node:fs';
import type { MessageConnection } from 'vscode-jsonrpc/node';
import { createStreamTransport, type PluginComponentStatus, type SkillsListChangedParams } from '../../protocol/index.js';
import type { PluginConfig } from './config.js';
import { KernelError } from './errors.js';
import { openPluginConnection, type DirectFailureHandler, type WorkspaceHandler } from './connection.js';
import type { HostServices } from './host-services.js';
import { buildPluginEnv } from './env.js';
import type { PluginLogSink } from './plugin-log.js';
import { pluginArgv, spawnFailed, spawnPlugin, type SpawnWrapper, type SpawnedPlugin } from './spawn.js';
import { forwardLines } from './stdio-log.js';

const isFile = (file: string) => statSync(file, { throwIfNoEntry: false })?.isFile() === true;

/** A running plugin process with its output forwarded and its RPC connection open. */
export interface PluginProcess {
  proc: SpawnedPlugin;
  conn: MessageConnection;
}

export interface PluginProcessEvents {
  onToolsChanged: (tools: unknown) => void;
  onSkillsChanged: (change: SkillsListChangedParams) => void;
  onStatusChanged?: (components: PluginComponentStatus[]) => void;
  onTransportError: (error: Error) => void;
  onClose: () => void;
}

/**
 * Spawns one plugin process (allow-listed env, own process group), forwards its stdout/stderr
 * lines to its log sink and opens the connection. Throws SPAWN_FAILED when nothing started.
 */
export async function startPluginProcess(
  config: PluginConfig,
  deps: { log: PluginLogSink; inheritEnv?: readonly string[]; workspace: () => WorkspaceHandler | undefined; directFailure?: () => DirectFailureHandler | undefined; services?: () => HostServices | undefined },
  launch: { cwd: string; env: Record<string, string>; confined?: { wrapper: SpawnWrapper; env: Record<string, string> } },
  events: PluginProcessEvents,
): Promise<PluginProcess> {
  // Confined: the sandbox's own cleared environment replaces the inherited allow-list.
  // Node would start and exit 1 on a missing module, which reads as a crash; name the cause.
  const [, [entry]] = pluginArgv(config);
  if (config.module && !isFile(entry!)) {
    throw new KernelError('SPAWN_FAILED', `plugin "${config.id}" could not be started: no file at ${entry} (its "module")`, { pluginId: config.id });
  }
  const env = launch.confined ? launch.confined.env : { ...buildPluginEnv(config, { inherit: deps.inheritEnv }), ...launch.env };
  const proc = spawnPlugin(config, env, launch.cwd, launch.confined?.wrapper);
  if (proc.pid < 0) throw spawnFailed(config, (await proc.exited).error);
  if (proc.stdout) forwardLines(proc.stdout, deps.log, 'info');
  forwardLines(proc.stderr, deps.log, 'info');
  const transport = createStreamTransport(proc.rpcIn, proc.rpcOut, { peer: `plugin "${config.id}"`, maxMessageBytes: config.maxMessageBytes });
  const conn = openPluginConnection(transport, { pluginId: config.id, log: deps.log, workspace: deps.workspace, directFailure: deps.directFailure, services: deps.services, ...events });
  return { proc, conn };
}
