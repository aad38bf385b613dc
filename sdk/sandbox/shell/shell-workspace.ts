import type {
  WorkspaceDirEntry, WorkspaceExecOptions, WorkspaceExecResult, WorkspaceReadOptions, WorkspaceReadResult,
  WorkspaceService, WorkspaceStat, WorkspaceWriteOptions,
} from '../../../protocol/v1/workspace-types.js';
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_MAX_READ_BYTES } from '../constants.js';
import { SandboxError } from '../errors.js';
import { guardFailure } from '../guard/failure.js';
import type { GuardCheck, GuardedPath, SandboxPathGuard } from '../guard/path-guard.js';
import * as S from './file-scripts.js';
import { shellExec } from './exec.js';
import { toExecResult, type ExecOutcome } from './exec-outcome.js';
import { runShell } from './run.js';
import { OutputTranscript } from './transcript.js';
import { parseDirectoryListing, parseStatLine } from './stat-parse.js';
import type { SandboxShellBackend, ShellRunRequest } from './types.js';

export interface ShellWorkspaceOptions {
  /** Defaults applied to every exec (the call's own options win). */
  env?: Record<string, string>;
  timeoutMs?: number;
  maxOutputBytes?: number;
}

/**
 * `WorkspaceService` over any sandbox that can run `sh`: every path goes through the
 * guard, every operation runs inside the sandbox. Docker and SSH both use this class, so
 * the same calls give the same results on both.
 */
export class ShellWorkspace implements WorkspaceService {
  constructor(
    protected readonly shell: SandboxShellBackend,
    protected readonly guard: SandboxPathGuard,
    protected readonly options: ShellWorkspaceOptions = {},
  ) {}

  protected async op(script: string, args: string[], action: string, path: string, extra: Partial<ShellRunRequest> = {}) {
    const result = await runShell(this.shell, { script, args, ...extra });
    const failure = guardFailure(result, action, path);
    if (failure) throw failure;
    return result;
  }

  private check(path: string, c: GuardCheck): Promise<GuardedPath> {
    return this.guard.resolve(path, c);
  }

  private refuseRoot(g: GuardedPath, action: string): void {
    if (this.guard.isMountRoot(g)) throw new SandboxError('PATH_NOT_ADMITTED', `Sandbox refuses to ${action} a mount root: ${g.input}`);
  }

  async read(path: string, options: WorkspaceReadOptions = {}, signal?: AbortSignal): Promise<WorkspaceReadResult> {
    const g = await this.check(path, { action: 'read', write: false, signal });
    if (options.expectedPolicyPath !== undefined && options.expectedPolicyPath !== g.path) {
      throw new SandboxError('POLICY_PATH_MISMATCH', `Sandbox read refused: ${path} now names ${g.path}, not ${options.expectedPolicyPath}`);
    }
    const max = options.maxBytes ?? DEFAULT_MAX_READ_BYTES;
    const r = await this.op(S.READ_SCRIPT, [g.target, String(max)], 'read', path, { maxOutputBytes: max + 65_536, signal });
    if (r.stdout.length > max) throw new SandboxError('FILE_TOO_LARGE', `Sandbox read refused: ${path} grew past ${max} bytes while being read`);
    const encoding = options.encoding ?? 'utf8';
    return { path: g.path, content: r.stdout.toString(encoding), encoding, size: r.stdout.length };
  }

  async write(path: string, content: string, options: WorkspaceWriteOptions = {}, signal?: AbortSignal): Promise<{ path: string; bytes: number }> {
    const g = await this.check(path, { action: 'write', write: true, signal });
    const data = Buffer.from(content, options.encoding ?? 'utf8');
    const r = await this.op(S.WRITE_SCRIPT, [g.target, options.mkdirs ? '1' : '0', options.append ? '1' : '0'], 'write', path, { stdin: data, signal });
    return { path: g.path, bytes: Number(r.stdout.toString().trim()) || data.length };
  }

  async stat(path: string, signal?: AbortSignal): Promise<WorkspaceStat> {
    const g = await this.check(path, { action: 'stat', write: false, signal });
    const r = await this.op(S.STAT_SCRIPT, [g.target], 'stat', path, { signal });
    return { path: g.path, ...parseStatLine(r.stdout.toString('utf8').trim()), isSymbolicLink: g.isSymbolicLink };
  }

  async readDirectory(path: string, signal?: AbortSignal): Promise<WorkspaceDirEntry[]> {
    const g = await this.check(path, { action: 'list', write: false, signal });
    const r = await this.op(S.LIST_SCRIPT, [g.target], 'list', path, { signal, maxOutputBytes: 64 * 1024 * 1024 });
    return parseDirectoryListing(r.stdout.toString('utf8'));
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}, signal?: AbortSignal): Promise<void> {
    const g = await this.check(path, { action: 'mkdir', write: true, signal });
    await this.op(S.MKDIR_SCRIPT, [g.target, options.recursive ? '1' : '0'], 'mkdir', path, { signal });
  }

  async remove(path: string, options: { recursive?: boolean } = {}, signal?: AbortSignal): Promise<void> {
    const g = await this.check(path, { action: 'remove', write: true, keepFinalSymlink: true, signal });
    this.refuseRoot(g, 'remove');
    await this.op(S.REMOVE_SCRIPT, [g.target, options.recursive ? '1' : '0'], 'remove', path, { signal });
  }

  async rename(from: string, to: string, signal?: AbortSignal): Promise<void> {
    const a = await this.check(from, { action: 'rename', write: true, keepFinalSymlink: true, signal });
    const b = await this.check(to, { action: 'rename', write: true, keepFinalSymlink: true, signal });
    this.refuseRoot(a, 'rename');
    this.refuseRoot(b, 'rename onto');
    await this.op(S.RENAME_SCRIPT, [a.target, b.target], 'rename', `${from} -> ${to}`, { signal });
  }

  /** Runs a command into a transcript: what `exec` and detached runs share. */
  execInto(command: string, options: WorkspaceExecOptions, signal: AbortSignal | undefined, transcript: OutputTranscript): Promise<ExecOutcome> {
    return shellExec(this.shell, this.guard, this.options, command, options, signal, transcript);
  }

  async exec(command: string, options: WorkspaceExecOptions = {}, signal?: AbortSignal): Promise<WorkspaceExecResult> {
    const transcript = new OutputTranscript(options.maxOutputBytes ?? this.options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES);
    return toExecResult(await this.execInto(command, options, signal, transcript), transcript);
  }
}
