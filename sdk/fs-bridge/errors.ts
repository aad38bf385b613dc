import { WORKSPACE_ERROR_CODES, type WorkspaceErrorCode } from '../../protocol/v1/workspace-types.js';
import { WorkspaceError } from '../plugin/errors.js';

export { WorkspaceError };

export function isWorkspaceError(value: unknown, code?: WorkspaceErrorCode): value is WorkspaceError {
  return value instanceof WorkspaceError && (code === undefined || value.code === code);
}

function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Plain words for errno codes; a Node message would show host paths (or /proc/self/fd names). */
const ERRNO_TEXT: Readonly<Record<string, string>> = {
  EEXIST: 'something already exists at this path',
  ENOTEMPTY: 'the directory is not empty',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'the file system is read-only',
  EXDEV: 'source and destination are on different file systems',
  EMLINK: 'too many links',
  EBUSY: 'the path is in use (a mount point?)',
  EINVAL: 'invalid operation (e.g. moving a directory into itself)',
  ETXTBSY: 'the file is a running program',
};

/**
 * Translate a Node fs error into a WorkspaceError naming the workspace path.
 * WorkspaceErrors pass through untouched so guards deeper down keep their code.
 */
export function toWorkspaceError(error: unknown, path: string, action: string): WorkspaceError {
  if (error instanceof WorkspaceError) return error;
  const code = errnoOf(error);
  switch (code) {
    case 'ENOENT':
      return new WorkspaceError('NOT_FOUND', `Cannot ${action}: no such file or directory: ${path}`, { path, cause: error });
    case 'ENOTDIR':
      return new WorkspaceError('NOT_A_DIRECTORY', `Cannot ${action}: a parent of ${path} is not a directory`, { path, cause: error });
    case 'EISDIR':
      return new WorkspaceError('NOT_A_FILE', `Cannot ${action}: ${path} is a directory`, { path, cause: error });
    case 'ELOOP':
      // O_NOFOLLOW met a symlink where the check saw none: something was swapped in.
      return new WorkspaceError('PATH_NOT_ADMITTED', `Cannot ${action}: ${path} changed into a symbolic link between the check and the operation`, { path, cause: error });
    case 'ENAMETOOLONG':
      return new WorkspaceError('PATH_NOT_ADMITTED', `Cannot ${action}: a name in ${path} is longer than the file system allows`, { path, cause: error });
    default: {
      const detail = code !== undefined ? (ERRNO_TEXT[code] ?? code) : error instanceof Error ? error.message : String(error);
      return new WorkspaceError('IO_ERROR', `Cannot ${action} ${path}: ${detail}`, { path, cause: error });
    }
  }
}

const KNOWN_CODES: ReadonlySet<string> = new Set(WORKSPACE_ERROR_CODES);

/**
 * The workspace error code of anything a workspace call threw: a WorkspaceError
 * (`code`), the kernel's routing refusal (`workspaceCode`) or raw ProtocolError data
 * (`data.code`). Undefined otherwise.
 */
export function workspaceErrorCodeOf(error: unknown): WorkspaceErrorCode | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const record = error as { code?: unknown; workspaceCode?: unknown; data?: { code?: unknown } };
  for (const candidate of [record.workspaceCode, record.code, record.data?.code]) {
    if (typeof candidate === 'string' && KNOWN_CODES.has(candidate)) return candidate as WorkspaceErrorCode;
  }
  return undefined;
}
