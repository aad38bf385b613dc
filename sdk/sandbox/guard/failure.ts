import { SandboxError, type SandboxErrorCode } from '../errors.js';
import { GUARD_EXIT_CODE } from './scripts.js';
import type { ShellRunResult } from '../shell/types.js';

const MARKER = /__PINCER_ERR__([A-Z_]+):([^\n]*)/;

/** Where a refusal is shown: `show` maps a canonical path where commands run into the model's namespace; `lexical` is the input there. */
export interface FailureContext {
  show(target: string): string;
  lexical?: string;
}

type Explain = (action: string, input: string, detail: string, context: FailureContext) => { code: SandboxErrorCode; message: string };

const refused = (code: SandboxErrorCode, text: string): Explain => (action, input, detail) =>
  ({ code, message: `Sandbox ${action} refused: ${input}: ${text}${detail ? ` (${detail})` : ''}` });

const EXPLAIN: Record<string, Explain> = {
  OUTSIDE: (action, input, detail) => ({ code: 'PATH_OUTSIDE_MOUNT', message: `Sandbox path escapes allowed mounts; cannot ${action}: ${input} (resolves to ${detail})` }),
  READ_ONLY: (action, input, detail, { show }) => ({ code: 'READ_ONLY_MOUNT', message: `Sandbox path is read-only; cannot ${action}: ${input} (mount ${show(detail)} is read-only)` }),
  ROOT: (action, input) => ({ code: 'PATH_NOT_ADMITTED', message: `Sandbox refuses to ${action} a mount root: ${input}` }),
  // Deliberately says nothing about how the protection could be lifted.
  PROTECTED: (action, input, detail, { show, lexical }) => {
    const canonical = show(detail);
    return { code: 'PROTECTED_PATH', message: `Sandbox path is protected; cannot ${action}: ${input}${canonical !== lexical ? ` (it resolves to ${canonical})` : ''}` };
  },
  HARD_LINKED: (action, input, detail) => ({ code: 'HARD_LINKED', message: `Sandbox ${action} refused: ${input} has ${detail} hard links, so it may be shared with a file outside the workspace` }),
  CONFLICT: (action, input, detail) => ({ code: 'CONFLICT', message: `Sandbox ${action} refused: ${input}: ${detail}; nothing was written` }),
  CHANGED: refused('PATH_NOT_ADMITTED', 'a path component changed between the check and the operation (symlink or directory swapped in); refusing'),
  DANGLING: refused('PATH_NOT_ADMITTED', 'the path goes through a dangling symlink; refusing to follow it'),
  NOT_FOUND: refused('NOT_FOUND', 'no such file or directory'),
  NOT_A_FILE: refused('NOT_A_FILE', 'not a regular file'),
  NOT_A_DIRECTORY: refused('NOT_A_DIRECTORY', 'not a directory'),
  FILE_TOO_LARGE: refused('FILE_TOO_LARGE', 'file is larger than the read limit'),
  EXISTS: refused('IO_ERROR', 'already exists'),
  NOT_EMPTY: refused('IO_ERROR', 'directory not empty'),
  IO_ERROR: refused('IO_ERROR', 'sandbox I/O failed'),
};

/**
 * Turns a failed guard/file-op script into a typed error. Returns null when the script
 * succeeded. Unknown failures become IO_ERROR carrying the script's stderr.
 */
export function guardFailure(result: ShellRunResult, action: string, path: string, context: FailureContext = { show: (t) => t }): SandboxError | null {
  if (result.timedOut) return new SandboxError('EXEC_TIMEOUT', `Sandbox ${action} timed out: ${path}`);
  if (result.exitCode === 0) return null;
  const stderr = result.stderr.toString('utf8');
  const m = result.exitCode === GUARD_EXIT_CODE ? MARKER.exec(stderr) : null;
  if (m) {
    const { code, message } = (EXPLAIN[m[1]] ?? EXPLAIN.IO_ERROR)(action, path, m[2], context);
    return new SandboxError(code, message, { data: { path, action, detail: m[2] } });
  }
  return new SandboxError('IO_ERROR', `Sandbox ${action} failed: ${path} (exit ${result.exitCode}): ${stderr.trim().slice(0, 500)}`, { data: { path, action } });
}
