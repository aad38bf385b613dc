import { DEFAULT_EXEC_TIMEOUT_MS, DEFAULT_MAX_OUTPUT_BYTES } from '../constants.js';
import { SandboxError, throwIfCancelled } from '../errors.js';
import { OutputCapture } from './capture.js';
import type { SandboxShellBackend, ShellRunRequest, ShellRunResult, SpawnedCommand } from './types.js';

/** After asking the sandbox to kill a group, how long the transport may take to close. */
const KILL_GRACE_MS = 3_000;

const KILL_SCRIPT = 'kill -KILL -"$1" 2>/dev/null; kill -KILL "$1" 2>/dev/null; exit 0';

// Killing happens inside the sandbox: closing our end of a docker exec stream or ssh
// channel does not stop the remote process, so its group is killed explicitly.
async function killGroup(backend: SandboxShellBackend, pgid: number): Promise<void> {
  try {
    const killer = await backend.spawn({ script: KILL_SCRIPT, args: [String(pgid)], stdin: false });
    killer.stdout.resume();
    killer.stderr.resume();
    await Promise.race([killer.exit, new Promise((r) => setTimeout(r, KILL_GRACE_MS).unref())]);
    killer.destroy();
  } catch {
    // the sandbox may already be gone; the caller still tears its transport down
  }
}

/**
 * Runs one script with the per-call contract of the workspace service: output cap
 * (memory stays bounded under a flood), timeout and cancellation that kill the command's
 * whole process group inside the sandbox, and a typed error when the sandbox vanishes.
 * A killable script (the exec wrapper) keeps its stdin open after the input: that open pipe
 * is its lifeline, and the wrapper kills the command's group when it closes.
 */
export async function runShell(backend: SandboxShellBackend, request: ShellRunRequest): Promise<ShellRunResult> {
  throwIfCancelled(request.signal, 'before start');
  const startedAt = Date.now();
  const command: SpawnedCommand = await backend.spawn({ script: request.script, args: request.args ?? [], stdin: request.stdin !== undefined });
  const capture = new OutputCapture(request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES, request.killable === true, request.transcript);
  command.stdout.on('data', (chunk: Buffer) => capture.push('stdout', chunk));
  command.stderr.on('data', (chunk: Buffer) => capture.push('stderr', chunk));
  command.stdout.on('error', () => undefined);
  command.stderr.on('error', () => undefined);
  if (request.stdin !== undefined) command.writeStdin(request.stdin, { keepOpen: request.killable === true });

  let timedOut = false;
  let cancelled = false;
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      // Cancelled while the command was still starting: wait for its pid, or the kill
      // would only close our end and leave the remote process running.
      if (request.killable && capture.pid === undefined) {
        await Promise.race([capture.pidKnown, command.exit, new Promise((r) => setTimeout(r, KILL_GRACE_MS).unref())]);
      }
      const pgid = capture.pid;
      if (pgid !== undefined) await killGroup(backend, pgid);
      // Either the group is dead and the stream is closing, or we could not kill it: give
      // the transport a moment to deliver the tail, then cut it.
      const t = setTimeout(() => command.destroy(), pgid === undefined ? 0 : KILL_GRACE_MS);
      t.unref();
    })();
  };
  const timer = setTimeout(() => { timedOut = true; stop(); }, request.timeoutMs ?? DEFAULT_EXEC_TIMEOUT_MS);
  const onAbort = () => { cancelled = true; stop(); };
  request.signal?.addEventListener('abort', onAbort, { once: true });
  if (request.signal?.aborted) onAbort();
  try {
    const { exitCode, gone } = await command.exit;
    await stopping;
    if (cancelled) throw new SandboxError('CANCELLED', `Sandbox command cancelled in ${backend.label}; its process group was killed.`, { cause: request.signal?.reason });
    if (gone && !timedOut) {
      throw new SandboxError('SANDBOX_GONE', `The sandbox (${backend.label}) went away during the call; it will be recreated on next use.`);
    }
    const captured = capture.result();
    return {
      ...captured,
      exitCode: timedOut ? null : exitCode,
      timedOut,
      started: capture.pid !== undefined,
      durationMs: Date.now() - startedAt,
      strayProcessesKilled: capture.strayProcessesKilled,
    };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
    command.destroy();
  }
}
