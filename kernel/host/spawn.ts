import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { execa, type ResultPromise } from 'execa';
import type { PluginConfig } from './config.js';
import { KernelError } from './errors.js';
import { registerProcessGroup } from './exit-hook.js';

/** A started plugin process and the byte streams of its RPC channel. */
export interface SpawnedPlugin {
  readonly pid: number;
  readonly child: ResultPromise;
  readonly rpcIn: Readable;
  readonly rpcOut: Writable;
  readonly stdout?: Readable;
  readonly stderr: Readable;
  /** Settles when the process exits (not when its streams close: a grandchild may hold them). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>;
}

export function pluginArgv(config: PluginConfig): [string, string[]] {
  // Absolute, because the process may start elsewhere than the kernel (its data directory).
  if (config.module) return [process.execPath, [path.resolve(config.cwd ?? '.', config.module), ...config.args]];
  const [file, ...args] = config.command!;
  return [file!, [...args, ...config.args]];
}

/**
 * Spawns a plugin in its own process group (`detached`), with the allow-listed env only, in
 * `cwd` (the configured one, else its data directory: never the kernel's, often a workspace).
 * fd3 transport: stdio is [stdin, stdout, stderr, rpc]; stdio transport: the RPC is stdin/stdout.
 */
export function spawnPlugin(config: PluginConfig, env: Record<string, string>, cwd: string): SpawnedPlugin {
  const [file, args] = pluginArgv(config);
  const fd3 = config.transport === 'fd3';
  const child = execa(file, args, {
    stdio: fd3 ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe'],
    env,
    extendEnv: false,
    detached: true,
    cleanup: false, // our exit hook kills the whole group instead
    buffer: false,
    reject: false,
    cwd,
    windowsHide: true,
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
  });
  void child.catch(() => undefined); // outcome observed through `exited`
  if (child.pid === undefined) {
    return { pid: -1, child, rpcIn: child.stdout!, rpcOut: child.stdin!, stderr: child.stderr!, exited };
  }
  registerProcessGroup(child.pid);
  const rpc = fd3 ? (child.stdio[3] as unknown as Readable & Writable) : undefined;
  return {
    pid: child.pid,
    child,
    rpcIn: rpc ?? child.stdout!,
    rpcOut: rpc ?? child.stdin!,
    stdout: fd3 ? child.stdout! : undefined,
    stderr: child.stderr!,
    exited,
  };
}

export function spawnFailed(config: PluginConfig, error: Error | undefined): KernelError {
  const [file] = pluginArgv(config);
  return new KernelError('SPAWN_FAILED', `plugin "${config.id}" could not be started (${file}): ${error?.message ?? 'unknown error'}`, {
    pluginId: config.id,
    cause: error,
  });
}
