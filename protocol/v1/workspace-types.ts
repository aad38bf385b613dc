import type { ExecRunService } from './exec-run-types.js';

/**
 * The workspace service: the only way a tool plugin touches files or runs commands.
 * The kernel routes each call to the session's sandbox backend (local, docker, ssh, ...),
 * so a tool plugin written against this interface runs unchanged on every backend.
 *
 * Paths are workspace paths as the model sees them: relative to the workspace root, or
 * absolute inside the sandbox namespace (e.g. `/workspace/src/a.ts`). Backends admit a path
 * only through their path mappings; an unmatched path is refused, never resolved on the host.
 *
 * @since 1
 */
export interface WorkspaceStat {
  /** Canonical workspace path of the target (after symlink resolution inside the mount). */
  path: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  size: number;
  mtimeMs: number;
  /** Permission bits (`mode & 0o7777`), when the backend knows them. @since 1 */
  mode?: number;
  /** Hard-link count of the target, when the backend knows it. @since 1 */
  nlink?: number;
  /**
   * Opaque content version of a regular file (identity, size and change times): equal
   * versions mean the file was not replaced or modified in between. Pass it back as
   * `WorkspaceWriteOptions.expectVersion` to refuse a write over a concurrent change. @since 1
   */
  version?: string;
}

/** One directory entry. Unknown types are neither file nor directory; never guessed. */
export interface WorkspaceDirEntry {
  name: string;
  isFile?: boolean;
  isDirectory?: boolean;
  size?: number;
  mtimeMs?: number;
}

export interface WorkspaceReadOptions {
  /** Byte cap; a larger file (or one that grows past it while read) fails with FILE_TOO_LARGE. */
  maxBytes?: number;
  encoding?: 'utf8' | 'base64';
  /** Refuse the read if this policy path no longer names the opened target. */
  expectedPolicyPath?: string;
}

export interface WorkspaceReadResult {
  path: string;
  content: string;
  encoding: 'utf8' | 'base64';
  size: number;
  /** Content version of the file as read (taken from the opened descriptor); see WorkspaceStat.version. @since 1 */
  version?: string;
}

export interface WorkspaceWriteOptions {
  encoding?: 'utf8' | 'base64';
  /** Create missing parent directories. */
  mkdirs?: boolean;
  /** Append instead of replacing (still atomic for the whole file). */
  append?: boolean;
  /**
   * Replace the file only if its current version (WorkspaceStat.version) still equals this,
   * checked immediately before the atomic replace; otherwise fail with CONFLICT and write
   * nothing. @since 1
   */
  expectVersion?: string;
  /** Create the file only if nothing exists at the path; otherwise fail with CONFLICT. @since 1 */
  createOnly?: boolean;
  /**
   * Permission bits for a file this write creates (an existing file always keeps its own
   * mode and, where the backend may, its owner). Applied explicitly, not through the umask. @since 1
   */
  mode?: number;
}

export interface WorkspaceExecOptions {
  /**
   * Working directory: a workspace path (relative, or `/workspace/...`), or an absolute path
   * as commands see it there (what `pwd` printed: a host path on `local`). Same admission as a file.
   */
  cwd?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
  /** Cap on captured stdout+stderr bytes; the rest is dropped and `truncated` is set. */
  maxOutputBytes?: number;
  stdin?: string;
}

/**
 * One stretch of a command's output, in the order the backend received it: a run of one
 * stream, or the place where output past the cap was dropped (the head and the tail are kept).
 * @since 1
 */
export type ExecOutputSegment = { stream: 'stdout' | 'stderr'; text: string } | { stream: 'omitted'; bytes: number };

export interface WorkspaceExecResult {
  exitCode: number | null;
  signal: string | null;
  /** The kept stdout (with `output`, the same text in arrival order beside stderr). */
  stdout: string;
  stderr: string;
  timedOut: boolean;
  truncated: boolean;
  durationMs: number;
  /** stdout and stderr interleaved in arrival order, with the dropped middle marked. @since 1 */
  output?: ExecOutputSegment[];
  /** Processes the command left running in its group (`&`, `nohup`) were killed when it exited. @since 1 */
  strayProcessesKilled?: boolean;
  /** The working directory as the command saw it (a host path on `local`). @since 1 */
  cwd?: string;
}

/**
 * Receives a running command's output as it comes (new output only, in arrival order). Where a
 * sender bounded its reports, a skipped stretch is an `omitted` segment. @since 1
 */
export type ExecOutputListener = (output: readonly ExecOutputSegment[]) => void;

/** What every sandbox backend serves, and what tool plugins call through the kernel. */
export interface WorkspaceService {
  /** Commands the backend runs detached from any call (background runs), when it offers them. @since 1 */
  readonly runs?: ExecRunService;
  read(path: string, options?: WorkspaceReadOptions, signal?: AbortSignal): Promise<WorkspaceReadResult>;
  write(path: string, content: string, options?: WorkspaceWriteOptions, signal?: AbortSignal): Promise<{ path: string; bytes: number }>;
  stat(path: string, signal?: AbortSignal): Promise<WorkspaceStat>;
  readDirectory(path: string, signal?: AbortSignal): Promise<WorkspaceDirEntry[]>;
  mkdir(path: string, options?: { recursive?: boolean }, signal?: AbortSignal): Promise<void>;
  remove(path: string, options?: { recursive?: boolean }, signal?: AbortSignal): Promise<void>;
  rename(from: string, to: string, signal?: AbortSignal): Promise<void>;
  /** `onOutput` hears the output while the command runs; the result is the same with or without it. */
  exec(command: string, options?: WorkspaceExecOptions, signal?: AbortSignal, onOutput?: ExecOutputListener): Promise<WorkspaceExecResult>;
}

/** Error codes a workspace operation may fail with (carried in ProtocolError data.code). */
export const WORKSPACE_ERROR_CODES = [
  'PATH_OUTSIDE_MOUNT',
  'PATH_NOT_ADMITTED',
  'READ_ONLY_MOUNT',
  'NOT_FOUND',
  'NOT_A_FILE',
  'NOT_A_DIRECTORY',
  'FILE_TOO_LARGE',
  'POLICY_PATH_MISMATCH',
  'EXEC_NOT_FOUND',
  'EXEC_TIMEOUT',
  'IO_ERROR',
  /** A mutating operation named a protected path (the loaded config, `.pincer/`, `.git/`, ...). */
  'PROTECTED_PATH',
  /** The file changed since the version the caller read (`expectVersion`), or exists (`createOnly`). */
  'CONFLICT',
  /** A regular file with more than one hard link; reading or writing it could reach outside the mount. */
  'HARD_LINKED',
  /** The sandbox's configuration failed the security validation (a dangerous bind, network, profile...). */
  'SECURITY_VIOLATION',
] as const;
export type WorkspaceErrorCode = (typeof WORKSPACE_ERROR_CODES)[number];
