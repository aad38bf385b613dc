import type { Writable } from 'node:stream';
import { execa } from 'execa';
import type { ExecOutcome } from '../../../../sdk/sandbox/shell/exec-outcome.js';
import type { OutputTranscript } from '../../../../sdk/sandbox/shell/transcript.js';
import { WorkspaceError } from '../../../../sdk/fs-bridge/index.js';
import { signalGroup, terminateGroup } from './kill-group.js';
import { reaper } from './reaper.js';

/**
 * The command waits at this gate until the backend has registered its group with the reaper,
 * and exits without running if the backend dies first (end of file on fd 3): there is no
 * moment in which it runs unregistered. `exec` keeps the pid, so the group is the same.
 */
const START_GATE = 'IFS= read -r _ <&3 || exit 125; exec 3<&-; exec /bin/sh -c "$1"';

/** After the shell exited, how long its output pipes may stay open before we stop reading. */
const STREAM_GRACE_MS = 2_000;

export interface RunCommandOptions {
  /** Host directory, already admitted by the path guard. */
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  /** Receives stdout and stderr as they arrive. */
  transcript: OutputTranscript;
  stdin?: string;
  signal?: AbortSignal;
  /** Time between SIGTERM and SIGKILL of the group. */
  killGraceMs: number;
}

/**
 * Run `/bin/sh -c command` as the leader of its own process group, registered with the
 * reaper until the group is dead. The timeout and the abort signal terminate the WHOLE
 * group; when the shell exits, whatever it left running in the group is killed too (and the
 * outcome says so), so a command never leaves a process behind: detached work is what
 * background runs are for.
 */
export async function runCommand(command: string, options: RunCommandOptions): Promise<ExecOutcome> {
  options.signal?.throwIfAborted();
  const started = performance.now();
  const child = execa('/bin/sh', ['-c', START_GATE, 'pincer', command], {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    detached: true,
    buffer: false,
    reject: false,
    stripFinalNewline: false,
    stdio: [options.stdin !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe', 'pipe'],
    ...(options.stdin !== undefined ? { input: options.stdin } : {}),
  });
  const pid = child.pid;
  if (pid === undefined) {
    const failure = await child;
    throw spawnFailure(failure.cause);
  }
  const untrack = reaper.track(pid);
  (child.stdio[3] as unknown as Writable).end('\n'); // registered: open the gate
  child.stdout?.on('data', (chunk: Buffer) => options.transcript.push('stdout', chunk));
  child.stderr?.on('data', (chunk: Buffer) => options.transcript.push('stderr', chunk));
  let strays = false;
  // The leader's exit is the end of the command: reap what it left running so the pipes close.
  child.once('exit', () => {
    strays = signalGroup(pid, 0);
    signalGroup(pid, 'SIGKILL');
    // A process that left the group (its own setsid) may still hold the pipes: stop waiting for it.
    setTimeout(() => [child.stdout, child.stderr].forEach((s) => s?.destroy()), STREAM_GRACE_MS).unref();
  });

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
      timedOut,
      durationMs: Math.round(performance.now() - started),
      ...(strays && !timedOut ? { strayProcessesKilled: true } : {}),
      cwd: options.cwd,
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
