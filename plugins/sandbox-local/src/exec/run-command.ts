import type { Duplex } from 'node:stream';
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

/** What the sandboxed gate writes on fd 3 when the command left processes running. */
const STRAYS_SIGNAL = 's';

/**
 * The same gate inside bubblewrap's PID namespace. There the host cannot tell strays from
 * bubblewrap's own init, which may still be exiting when the outer bwrap has (it reports the
 * status before its init is gone), so the group probe would report strays that never were.
 * The gate shell looks instead: after the command, any live process of its PID namespace other
 * than itself and its parent (bubblewrap's init) is a stray; it says so on fd 3 and kills it.
 * Pids are read from /proc/self/stat, not `$$`: in a confined plugin the /proc it sees is its
 * parent namespace's, so the namespace is compared by the identity of `ns/pid`.
 */
const SANDBOXED_START_GATE = [
  'IFS= read -r _ <&3 || exit 125',
  // The gate's own stderr is muted: the shell's "Terminated" when the command dies of a signal is not the command's output.
  'exec 4>&2 2>/dev/null',
  '/bin/sh -c "$1" 2>&4 3>&- 4>&-',
  'rc=$?',
  'read -r me _ _ init _ < /proc/self/stat',
  'for p in /proc/[0-9]*; do',
  '  case ${p#/proc/} in "$me"|"$init") continue;; esac',
  '  [ "$p/ns/pid" -ef /proc/self/ns/pid ] || continue',
  '  IFS= read -r st < "$p/stat" 2>/dev/null || continue',
  '  case $st in *") Z "*) continue;; esac',
  `  printf '${STRAYS_SIGNAL}' >&3; kill -KILL -1 2>/dev/null; break`,
  'done',
  'exit $rc',
].join('\n');

/** After the shell exited, how long its output pipes may stay open before we stop reading. */
const STREAM_GRACE_MS = 2_000;

export interface RunCommandOptions {
  /** Host directory, already admitted by the path guard. */
  cwd: string;
  /** bubblewrap's arguments: the shell runs inside that sandbox (undefined: on the host). */
  sandbox?: readonly string[];
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
  const shell = ['/bin/sh', '-c', options.sandbox ? SANDBOXED_START_GATE : START_GATE, 'pincer', command];
  // bubblewrap passes fd 3 (the gate) through and keeps the shell in its own process group.
  const [file, ...args] = options.sandbox ? ['bwrap', ...options.sandbox, '--', ...shell] : shell;
  const child = execa(file!, args, {
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
  const gate = child.stdio[3] as unknown as Duplex;
  let strays = false;
  gate.on('data', (chunk: Buffer) => {
    if (chunk.includes(STRAYS_SIGNAL)) strays = true;
  });
  gate.end('\n'); // registered: open the gate
  child.stdout?.on('data', (chunk: Buffer) => options.transcript.push('stdout', chunk));
  child.stderr?.on('data', (chunk: Buffer) => options.transcript.push('stderr', chunk));
  // The leader's exit is the end of the command: reap what it left running so the pipes close.
  child.once('exit', () => {
    if (!options.sandbox) strays = signalGroup(pid, 0);
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
