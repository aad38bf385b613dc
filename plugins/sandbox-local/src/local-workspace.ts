import fs from 'node:fs/promises';
import type {
  WorkspaceDirEntry,
  WorkspaceExecOptions,
  WorkspaceExecResult,
  WorkspaceReadOptions,
  WorkspaceReadResult,
  WorkspaceService,
  WorkspaceStat,
  WorkspaceWriteOptions,
} from '../../../protocol/v1/workspace-types.js';
import { HostFsBridge, WorkspaceError, type PathMapping, type TempJournal } from '../../../sdk/fs-bridge/index.js';
import { buildCommandEnv } from './exec/env.js';
import { runCommand } from './exec/run-command.js';

/** Container root of the workspace mount, as the model sees it. */
export const LOCAL_WORKSPACE_ROOT = '/workspace';

export interface LocalWorkspaceOptions {
  /** Host directory served as `/workspace`. */
  workspaceDir: string;
  /** Extra mounts; always read-only on this backend. */
  readOnlyMounts?: readonly Omit<PathMapping, 'readOnly'>[];
  /** The workspace mount itself is read-only (sandbox workspaceAccess `ro`). */
  readOnly?: boolean;
  /** Workspace-relative paths no file operation may change (PROTECTED_PATH). */
  protectedPaths?: readonly string[];
  /** Read and write files with more than one hard link (HARD_LINKED otherwise). */
  allowHardLinks?: boolean;
  /** Where in-flight temp files are recorded, so a crash's leftovers are removed at the next start. */
  tempJournal?: TempJournal;
  maxReadBytes?: number;
  /** Environment every command gets on top of the inherited allow-list. */
  env?: Record<string, string>;
  defaultTimeoutMs?: number;
  defaultMaxOutputBytes?: number;
  killGraceMs?: number;
}

export const LOCAL_EXEC_DEFAULTS = { timeoutMs: 120_000, maxOutputBytes: 1024 * 1024, killGraceMs: 1_000 } as const;

/**
 * The `local` backend's workspace: the host file system behind seed-003 path
 * mappings (`<workspaceDir>` → `/workspace`, plus read-only extras), every file
 * operation through the fs-bridge path guard, commands through `/bin/sh -c` in
 * their own process group.
 */
export class LocalWorkspace implements WorkspaceService {
  readonly bridge: HostFsBridge;
  readonly #options: LocalWorkspaceOptions;

  constructor(options: LocalWorkspaceOptions) {
    this.#options = options;
    const mappings: PathMapping[] = [
      { hostRoot: options.workspaceDir, containerRoot: LOCAL_WORKSPACE_ROOT, readOnly: options.readOnly === true, protectedPaths: options.protectedPaths ?? [] },
      ...(options.readOnlyMounts ?? []).map((m) => ({ ...m, readOnly: true })),
    ];
    this.bridge = new HostFsBridge({ mappings, maxReadBytes: options.maxReadBytes, allowHardLinks: options.allowHardLinks, tempJournal: options.tempJournal });
  }

  get workdir(): string {
    return LOCAL_WORKSPACE_ROOT;
  }

  async read(path: string, options: WorkspaceReadOptions = {}, signal?: AbortSignal): Promise<WorkspaceReadResult> {
    const encoding = options.encoding ?? 'utf8';
    const { path: canonical, data, version } = await this.bridge.readFile(path, {
      maxBytes: options.maxBytes,
      expectedPolicyPath: options.expectedPolicyPath,
      signal,
    });
    return { path: canonical, content: data.toString(encoding), encoding, size: data.length, version };
  }

  async write(path: string, content: string, options: WorkspaceWriteOptions = {}, signal?: AbortSignal): Promise<{ path: string; bytes: number }> {
    signal?.throwIfAborted();
    const data = Buffer.from(content, options.encoding ?? 'utf8');
    const { mkdirs, append, expectVersion, createOnly, mode } = options;
    return this.bridge.writeFile(path, data, { mkdirs, append, expectVersion, createOnly, mode });
  }

  async stat(path: string, signal?: AbortSignal): Promise<WorkspaceStat> {
    signal?.throwIfAborted();
    return this.bridge.stat(path);
  }

  async readDirectory(path: string, signal?: AbortSignal): Promise<WorkspaceDirEntry[]> {
    signal?.throwIfAborted();
    return this.bridge.readDirectory(path);
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    await this.bridge.mkdir(path, options);
  }

  async remove(path: string, options: { recursive?: boolean } = {}, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    await this.bridge.remove(path, options);
  }

  async rename(from: string, to: string, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    await this.bridge.rename(from, to);
  }

  async exec(command: string, options: WorkspaceExecOptions = {}, signal?: AbortSignal): Promise<WorkspaceExecResult> {
    const cwd = await this.#admitCwd(options.cwd ?? LOCAL_WORKSPACE_ROOT);
    return runCommand(command, {
      cwd,
      env: buildCommandEnv(process.env, this.#options.env, options.env),
      timeoutMs: options.timeoutMs ?? this.#options.defaultTimeoutMs ?? LOCAL_EXEC_DEFAULTS.timeoutMs,
      maxOutputBytes: options.maxOutputBytes ?? this.#options.defaultMaxOutputBytes ?? LOCAL_EXEC_DEFAULTS.maxOutputBytes,
      killGraceMs: this.#options.killGraceMs ?? LOCAL_EXEC_DEFAULTS.killGraceMs,
      stdin: options.stdin,
      signal,
    });
  }

  /** The working directory passes the same admission as a file path, and must be a directory. */
  async #admitCwd(cwd: string): Promise<string> {
    const guarded = await this.bridge.guard.admit(cwd);
    const stat = await fs.stat(guarded.hostPath).catch(() => null);
    if (stat === null) throw new WorkspaceError('NOT_FOUND', `Working directory does not exist: ${cwd}`, { path: cwd });
    if (!stat.isDirectory()) throw new WorkspaceError('NOT_A_DIRECTORY', `Working directory is not a directory: ${cwd}`, { path: cwd });
    return guarded.hostPath;
  }
}
