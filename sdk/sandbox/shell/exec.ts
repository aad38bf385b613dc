import type { WorkspaceExecOptions } from '../../../protocol/v1/workspace-types.js';
import type { SandboxPathGuard } from '../guard/path-guard.js';
import { NON_INTERACTIVE_ENV } from './command-env.js';
import type { ExecOutcome } from './exec-outcome.js';
import { execScript } from './exec-script.js';
import { runShell } from './run.js';
import type { OutputTranscript } from './transcript.js';
import type { SandboxShellBackend } from './types.js';

export interface ShellExecDefaults {
  /** Environment every command gets (the call's own env wins). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Runs one command inside a shell-backed sandbox under the exec wrapper, into `transcript`.
 * `cwd` may be a namespace path (`/workspace/src`), a relative one, or a path as commands see
 * it (what `pwd` printed): all pass the same guard. The outcome names the directory as the
 * command saw it.
 */
export async function shellExec(
  shell: SandboxShellBackend,
  guard: SandboxPathGuard,
  defaults: ShellExecDefaults,
  command: string,
  options: WorkspaceExecOptions,
  signal: AbortSignal | undefined,
  transcript: OutputTranscript,
): Promise<ExecOutcome> {
  const cwd = guard.fromTargetPath(options.cwd ?? guard.workdir);
  // The cwd is resolved, judged and entered by the exec script itself, in the step that runs the command.
  const target = guard.target(cwd, 'exec in', signal);
  const stdin = Buffer.from(options.stdin ?? '');
  const r = await runShell(shell, {
    script: execScript({ ...NON_INTERACTIVE_ENV, ...defaults.env, ...options.env }),
    args: [...guard.scriptArgs, target, command, String(stdin.length)],
    stdin,
    timeoutMs: options.timeoutMs ?? defaults.timeoutMs,
    signal,
    killable: true,
    transcript,
  });
  // Before the pid marker, a failure is the wrapper's own (cwd vanished or was swapped, no temp file).
  if (!r.started && !r.timedOut) {
    const failure = guard.failure({ ...r, stderr: Buffer.from(transcript.snapshot().stderr) }, 'exec in', cwd);
    if (failure) throw failure;
  }
  return {
    exitCode: r.exitCode,
    signal: r.timedOut ? 'SIGKILL' : null,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    ...(r.strayProcessesKilled ? { strayProcessesKilled: true } : {}),
    cwd: target,
  };
}
