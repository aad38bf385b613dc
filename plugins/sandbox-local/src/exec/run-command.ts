import { execa } from 'execa';
import type { WorkspaceExecResult } from '../../../../protocol/v1/workspace-types.js';
import { WorkspaceError } from '../../../../sdk/fs-bridge/index.js';
import { signalGroup, terminateGroup, trackGroup } from './kill-group.js';
import { OutputCollector } from './output-cap.js';

export interface RunCommandOptions {
  /** Host directory, already admitted by the path guard. */
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  stdin?: string;
  signal?: AbortSignal;
  /** Time between SIGTERM and SIGKILL of the group. */
  killGraceMs: number;
}

/**
 * Run `/bin/sh -c command` as the leader of its own process group. The timeout
 * and the abort signal terminate the WHOLE group; when the shell exits normally,
 * whatever it left running in the group is killed too, so a command never leaves
 * a process behind (background work is the shell tool's job, not a side effect).
 */
export async function runCommand(command: string, options: RunCommandOptions): Promise<WorkspaceExecResult> {
  options.signal?.throwIfAborted();
  const started = performance.now();
  const output = new OutputCollector(options.maxOutputBytes);
  const child = execa('/bin/sh', ['-c', command], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    detached: true,
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    ...(options.stdin !== undefined ? { input: options.stdin } : { stdin: 'ignore' as const }),
  });
  const pid = child.pid;
  if (pid === undefined) {
    const failure = await child;
    throw spawnFailure(failure.cause);
  }
  const untrack = trackGroup(pid);
  child.stdout?.on('data', (chunk: Buffer) => output.push('stdout', chunk));
  child.stderr?.on('data', (chunk: Buffer) => output.push('stderr', chunk));
  // The leader's exit is the end of the command: reap stragglers so the pipes close.
  child.once('exit', () => signalGroup(pid, 'SIGKILL'));

  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    terminateGroup(pid, options.killGraceMs, child);
  }, options.timeoutMs);
  const onAbort = () => terminateGroup(pid, options.killGraceMs, child);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const result = await child;
    options.signal?.throwIfAborted();
    if (result.exitCode === undefined && result.signal === undefined) throw spawnFailure(result.cause);
    return {
      exitCode: result.exitCode ?? null,
      signal: result.signal ?? null,
      stdout: output.text('stdout'),
      stderr: output.text('stderr'),
      timedOut,
      truncated: output.truncated,
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    untrack();
  }
}

function spawnFailure(cause: unknown): WorkspaceError {
  const code = (cause as { code?: string } | undefined)?.code;
  if (code === 'ENOENT') {
    return new WorkspaceError('EXEC_NOT_FOUND', 'Cannot start /bin/sh: the shell or the working directory does not exist', { cause });
  }
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new WorkspaceError('IO_ERROR', `Cannot start the command: ${detail}`, { cause });
}
