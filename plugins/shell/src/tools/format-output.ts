import type { WorkspaceExecResult } from '../../../../protocol/index.js';

/** Exit status 127 is the POSIX shell's "command not found". */
export const EXIT_COMMAND_NOT_FOUND = 127;

/** stdout, then stderr under a marker, then one status line the model can rely on. */
export function formatExecOutput(result: WorkspaceExecResult, timeoutMs: number): string {
  const parts: string[] = [];
  if (result.stdout !== '') parts.push(result.stdout.replace(/\n$/, ''));
  if (result.stderr !== '') parts.push(`[stderr]\n${result.stderr.replace(/\n$/, '')}`);
  if (parts.length === 0) parts.push('(no output)');
  parts.push(statusLine(result, timeoutMs));
  return parts.join('\n');
}

export function statusLine(result: WorkspaceExecResult, timeoutMs: number): string {
  const seconds = (result.durationMs / 1000).toFixed(1);
  const notes: string[] = [];
  if (result.timedOut) notes.push(`timed out after ${timeoutMs / 1000} s; the command and its child processes were killed`);
  else if (result.exitCode !== null) notes.push(`exit code ${result.exitCode}`);
  else notes.push(`killed by ${result.signal ?? 'a signal'}`);
  if (result.truncated) notes.push('output truncated: only the first bytes were kept; redirect to a file and read parts of it');
  return `[${notes.join('; ')}; ${seconds} s]`;
}
