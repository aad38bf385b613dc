import type { ExecRunService } from '../../../protocol/v1/exec-run-types.js';
import type {
  ExecOutputListener,
  WorkspaceDirEntry,
  WorkspaceExecOptions,
  WorkspaceExecResult,
  WorkspaceReadOptions,
  WorkspaceReadResult,
  WorkspaceService,
  WorkspaceStat,
  WorkspaceWriteOptions,
} from '../../../protocol/v1/workspace-types.js';
import { HostFsBridge, type PathMapping, type TempJournal } from '../../../sdk/fs-bridge/index.js';
import { RunTable } from '../../../sdk/sandbox/runs/run-table.js';
import { toExecResult, type TranscriptExecutor } from '../../../sdk/sandbox/shell/exec-outcome.js';
import { OutputTranscript } from '../../../sdk/sandbox/shell/transcript.js';
import type { ExecConfinement } from './exec/exec-confinement.js';
import { LOCAL_EXEC_DEFAULTS, localExecutor } from './exec/local-exec.js';

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
  /** How commands are confined (none: on the host, as `danger-full-access`). */
  confinement?: ExecConfinement;
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
  /** Detached runs: the backend's shared table and this workspace's session in it (default: a table of its own). */
  runTable?: RunTable;
  session?: string;
}

/**
 * The `local` backend's workspace: the host file system behind seed-003 path
 * mappings (`<workspaceDir>` → `/workspace`, plus read-only extras), every file
 * operation through the fs-bridge path guard, commands through `/bin/sh -c` in
 * their own process group.
 */
export class LocalWorkspace implements WorkspaceService {
  readonly bridge: HostFsBridge;
  readonly #options: LocalWorkspaceOptions;
  /** Runs a command into a transcript: what `exec` and detached runs share. */
  readonly execInto: TranscriptExecutor;
  readonly runs: ExecRunService;

  constructor(options: LocalWorkspaceOptions) {
    this.#options = options;
    const mappings: PathMapping[] = [
      { hostRoot: options.workspaceDir, containerRoot: LOCAL_WORKSPACE_ROOT, readOnly: options.readOnly === true, protectedPaths: options.protectedPaths ?? [] },
      ...(options.readOnlyMounts ?? []).map((m) => ({ ...m, readOnly: true })),
    ];
    this.bridge = new HostFsBridge({ mappings, maxReadBytes: options.maxReadBytes, allowHardLinks: options.allowHardLinks, tempJournal: options.tempJournal });
    this.execInto = localExecutor({ bridge: this.bridge, root: LOCAL_WORKSPACE_ROOT, ...options });
    this.runs = (options.runTable ?? new RunTable()).service(options.session ?? 'local', this.execInto);
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

  async exec(command: string, options: WorkspaceExecOptions = {}, signal?: AbortSignal, onOutput?: ExecOutputListener): Promise<WorkspaceExecResult> {
    const transcript = new OutputTranscript(options.maxOutputBytes ?? this.#options.defaultMaxOutputBytes ?? LOCAL_EXEC_DEFAULTS.maxOutputBytes, onOutput);
    return toExecResult(await this.execInto(command, options, signal, transcript), transcript);
  }
}
