import type { WorkspaceErrorCode } from '../../protocol/v1/workspace-types.js';
import { workspaceErrorCodeOf } from './errors.js';

/** What a model should do next for each workspace refusal: tool results show it beside the error. */
export const WORKSPACE_ERROR_HINTS: Readonly<Record<WorkspaceErrorCode, string>> = {
  PATH_OUTSIDE_MOUNT: 'The path leaves the workspace (through ".." or a symbolic link that points outside). Use a path inside the workspace.',
  PATH_NOT_ADMITTED: 'Only paths inside the sandbox mounts are allowed. Use a path relative to the workspace root (e.g. "src/index.ts").',
  READ_ONLY_MOUNT: 'This location is mounted read-only; write somewhere else in the workspace.',
  NOT_FOUND: 'Nothing exists at this path. List the directory with the ls tool to find the right name.',
  NOT_A_FILE: 'The path names a directory or a special file, not a regular file. Use ls to list a directory.',
  NOT_A_DIRECTORY: 'The path (or one of its parents) is a file, not a directory.',
  FILE_TOO_LARGE: 'The file is larger than the read limit. Read part of it with exec (e.g. `sed -n 1,200p FILE`, `head`, `grep -n`).',
  POLICY_PATH_MISMATCH: 'The file changed (was replaced or re-linked) after it was authorized. Look it up again.',
  EXEC_NOT_FOUND: 'The command was not found. Check its spelling, or whether it is installed (`command -v NAME`).',
  EXEC_TIMEOUT: 'The command ran out of time and was killed with its whole process group. Raise the timeout or run it in the background.',
  IO_ERROR: 'The operation failed in the file system; the message says why.',
  // Deliberately no advice on how to lift the protection: the model must not be coached to edit its own fences.
  PROTECTED_PATH: 'This path is protected and cannot be changed by tools. Leave it as it is and continue with other files.',
  CONFLICT: 'The file changed since it was read (another process wrote it). Read it again and redo the change on the current content.',
  SECURITY_VIOLATION: 'The sandbox for this session was refused by its security validation. This is a configuration problem for the operator; tools cannot fix it.',
  HARD_LINKED: 'The file has more than one hard link, so it may be shared with a file outside the workspace; tools do not read or write such files.',
};

export interface ExplainedWorkspaceError {
  code: WorkspaceErrorCode;
  message: string;
  hint: string;
  path?: string;
}

/** Code, message and hint of a workspace failure, or undefined for anything else (a bug, a cancellation). */
export function explainWorkspaceError(error: unknown): ExplainedWorkspaceError | undefined {
  const code = workspaceErrorCodeOf(error);
  if (code === undefined) return undefined;
  const record = error as { message?: unknown; path?: unknown; data?: { path?: unknown } };
  const path = typeof record.path === 'string' ? record.path : typeof record.data?.path === 'string' ? record.data.path : undefined;
  const message = typeof record.message === 'string' ? record.message : code;
  return { code, message, hint: WORKSPACE_ERROR_HINTS[code], ...(path !== undefined ? { path } : {}) };
}
