import { SandboxError, type SandboxErrorCode } from '../errors.js';
import { GUARD_EXIT_CODE } from './scripts.js';
import type { ShellRunResult } from '../shell/types.js';

const MARKER = /__PINCER_ERR__([A-Z_]+):([^\n]*)/;

const EXPLAIN: Record<string, { code: SandboxErrorCode; text: string }> = {
  CHANGED: { code: 'PATH_NOT_ADMITTED', text: 'a path component changed between the check and the operation (symlink or directory swapped in); refusing' },
  DANGLING: { code: 'PATH_NOT_ADMITTED', text: 'the path goes through a dangling symlink; refusing to follow it' },
  NOT_FOUND: { code: 'NOT_FOUND', text: 'no such file or directory' },
  NOT_A_FILE: { code: 'NOT_A_FILE', text: 'not a regular file' },
  NOT_A_DIRECTORY: { code: 'NOT_A_DIRECTORY', text: 'not a directory' },
  FILE_TOO_LARGE: { code: 'FILE_TOO_LARGE', text: 'file is larger than the read limit' },
  EXISTS: { code: 'IO_ERROR', text: 'already exists' },
  NOT_EMPTY: { code: 'IO_ERROR', text: 'directory not empty' },
  IO_ERROR: { code: 'IO_ERROR', text: 'sandbox I/O failed' },
};

/**
 * Turns a failed guard/file-op script into a typed error. Returns null when the script
 * succeeded. Unknown failures become IO_ERROR carrying the script's stderr.
 */
export function guardFailure(result: ShellRunResult, action: string, path: string): SandboxError | null {
  if (result.timedOut) return new SandboxError('EXEC_TIMEOUT', `Sandbox ${action} timed out: ${path}`);
  if (result.exitCode === 0) return null;
  const stderr = result.stderr.toString('utf8');
  const m = result.exitCode === GUARD_EXIT_CODE ? MARKER.exec(stderr) : null;
  if (m) {
    const known = EXPLAIN[m[1]] ?? EXPLAIN.IO_ERROR;
    return new SandboxError(known.code, `Sandbox ${action} refused: ${path}: ${known.text}${m[2] ? ` (${m[2]})` : ''}`, { data: { path, action, detail: m[2] } });
  }
  return new SandboxError('IO_ERROR', `Sandbox ${action} failed: ${path} (exit ${result.exitCode}): ${stderr.trim().slice(0, 500)}`, { data: { path, action } });
}
