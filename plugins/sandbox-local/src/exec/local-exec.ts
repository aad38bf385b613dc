import fs from 'node:fs/promises';
import type { HostFsBridge } from '../../../../sdk/fs-bridge/index.js';
import { WorkspaceError } from '../../../../sdk/fs-bridge/index.js';
import type { TranscriptExecutor } from '../../../../sdk/sandbox/shell/exec-outcome.js';
import { workspacePathOfHostPath } from './cwd.js';
import { buildCommandEnv } from './env.js';
import { runCommand } from './run-command.js';

export const LOCAL_EXEC_DEFAULTS = { timeoutMs: 120_000, maxOutputBytes: 1024 * 1024, killGraceMs: 1_000 } as const;

export interface LocalExecSettings {
  bridge: HostFsBridge;
  /** The workspace root's path, the default `cwd`. */
  root: string;
  /** Environment every command gets on top of the inherited allow-list. */
  env?: Record<string, string>;
  defaultTimeoutMs?: number;
  killGraceMs?: number;
}

/** The working directory (default: the root) passes the same admission as a file path, and must be a directory. */
async function admitCwd(settings: LocalExecSettings, requested: string | undefined): Promise<string> {
  const cwd = requested ?? settings.root;
  const guarded = await settings.bridge.guard.admit(requested === undefined ? cwd : workspacePathOfHostPath(cwd, settings.bridge.pathMappings));
  const stat = await fs.stat(guarded.hostPath).catch(() => null);
  if (stat === null) throw new WorkspaceError('NOT_FOUND', `Working directory does not exist: ${cwd}`, { path: cwd });
  if (!stat.isDirectory()) throw new WorkspaceError('NOT_A_DIRECTORY', `Working directory is not a directory: ${cwd}`, { path: cwd });
  return guarded.hostPath;
}

/** Runs commands of the `local` backend on the host, in the admitted directory, into a transcript. */
export function localExecutor(settings: LocalExecSettings): TranscriptExecutor {
  return async (command, options, signal, transcript) =>
    runCommand(command, {
      cwd: await admitCwd(settings, options.cwd),
      env: buildCommandEnv(process.env, settings.env, options.env),
      timeoutMs: options.timeoutMs ?? settings.defaultTimeoutMs ?? LOCAL_EXEC_DEFAULTS.timeoutMs,
      killGraceMs: settings.killGraceMs ?? LOCAL_EXEC_DEFAULTS.killGraceMs,
      transcript,
      stdin: options.stdin,
      signal,
    });
}
