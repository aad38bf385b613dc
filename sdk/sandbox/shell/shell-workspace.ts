import { randomBytes } from 'node:crypto';
import type {
  ExecOutputListener, WorkspaceDirEntry, WorkspaceExecOptions, WorkspaceExecResult, WorkspaceReadOptions, WorkspaceReadResult,
  WorkspaceService, WorkspaceStat, WorkspaceWriteOptions,
} from '../../../protocol/v1/workspace-types.js';
import { DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_MAX_READ_BYTES } from '../constants.js';
import { SandboxError } from '../errors.js';
import type { SandboxPathGuard } from '../guard/path-guard.js';
import * as S from './file-scripts.js';
import { shellExec } from './exec.js';
import { toExecResult, type ExecOutcome } from './exec-outcome.js';
import { runShell } from './run.js';
import { OutputTranscript } from './transcript.js';
import { parseDirectoryListing, parseStatLine, takeFields } from './stat-parse.js';
import type { SandboxShellBackend, ShellRunRequest } from './types.js';

export interface ShellWorkspaceOptions {
  /** Defaults applied to every exec (the call's own options win). */
  env?: Record<string, string>;
  timeoutMs?: number;
  maxOutputBytes?: number;
  /** Workspace-relative paths no file operation may change (PROTECTED_PATH); used where the guard is opened. */
  protectedPaths?: readonly string[];
  /** Read and write files with more than one hard link (HARD_LINKED otherwise); used where the guard is opened. */
  allowHardLinks?: boolean;
}

/** The header every file script prints first: whether the input was a link, and its canonical target. */
interface Resolved {
  isSymbolicLink: boolean;
  target: string;
}

/**
 * `WorkspaceService` over any sandbox that can run `sh`: each operation is one script that
 * resolves, judges (guard tables) and uses its path in the same remote step, so a swap
 * between a check and a use has no second command to hide in. Docker and SSH both use
 * this class, so the same calls give the same results on both.
 */
export class ShellWorkspace implements WorkspaceService {
  constructor(
    protected readonly shell: SandboxShellBackend,
    protected readonly guard: SandboxPathGuard,
    protected readonly options: ShellWorkspaceOptions = {},
  ) {}

  /** Runs an operation script on guarded targets; returns the headers and the rest of stdout. */
  protected async op(script: string, inputs: readonly string[], args: string[], action: string, extra: Partial<ShellRunRequest> = {}) {
    const targets = inputs.map((input) => this.guard.target(input, action, extra.signal));
    const result = await runShell(this.shell, { script, args: [...this.guard.scriptArgs, ...targets, ...args], ...extra });
    const failure = this.guard.failure(result, action, inputs.join(' -> '));
    if (failure) throw failure;
    const { fields, rest } = takeFields(result.stdout, inputs.length);
    const resolved: Resolved[] = fields.map((f) => ({ isSymbolicLink: f[0] === '1', target: f.slice(2) }));
    return { resolved, rest };
  }

  async read(path: string, options: WorkspaceReadOptions = {}, signal?: AbortSignal): Promise<WorkspaceReadResult> {
    const max = options.maxBytes ?? DEFAULT_MAX_READ_BYTES;
    const { resolved, rest } = await this.op(S.READ_SCRIPT, [path], [String(max)], 'read', { maxOutputBytes: max + 65_536, signal });
    const canonical = this.guard.namespacePath(resolved[0].target);
    // Checked after the read, on the target the script opened: a policy path is compared with what was read.
    if (options.expectedPolicyPath !== undefined && options.expectedPolicyPath !== canonical) {
      throw new SandboxError('POLICY_PATH_MISMATCH', `Sandbox read refused: ${path} now names ${canonical}, not ${options.expectedPolicyPath}`, { data: { path } });
    }
    const { fields, rest: data } = takeFields(rest, 1);
    if (data.length > max) throw new SandboxError('FILE_TOO_LARGE', `Sandbox read refused: ${path} grew past ${max} bytes while being read`, { data: { path } });
    const encoding = options.encoding ?? 'utf8';
    return { path: canonical, content: data.toString(encoding), encoding, size: data.length, version: parseStatLine(fields[0]).version };
  }

  async write(path: string, content: string, options: WorkspaceWriteOptions = {}, signal?: AbortSignal): Promise<{ path: string; bytes: number }> {
    const data = Buffer.from(content, options.encoding ?? 'utf8');
    const args = [
      options.mkdirs ? '1' : '0',
      options.append ? '1' : '0',
      String(data.length),
      options.mode === undefined ? '' : (options.mode & 0o777).toString(8),
      options.expectVersion ?? '',
      options.createOnly ? '1' : '0',
      randomBytes(6).toString('hex'), // the temp name: unguessable before the script creates it
    ];
    const { resolved, rest } = await this.op(S.WRITE_SCRIPT, [path], args, 'write', { stdin: data, signal });
    return { path: this.guard.namespacePath(resolved[0].target), bytes: Number(rest.toString().trim()) || data.length };
  }

  async stat(path: string, signal?: AbortSignal): Promise<WorkspaceStat> {
    const { resolved, rest } = await this.op(S.STAT_SCRIPT, [path], [], 'stat', { signal });
    const { isSymbolicLink, target } = resolved[0];
    return { path: this.guard.namespacePath(target), ...parseStatLine(rest.toString('utf8').trim()), isSymbolicLink };
  }

  async readDirectory(path: string, signal?: AbortSignal): Promise<WorkspaceDirEntry[]> {
    const { rest } = await this.op(S.LIST_SCRIPT, [path], [], 'list', { signal, maxOutputBytes: 64 * 1024 * 1024 });
    return parseDirectoryListing(rest.toString('utf8'));
  }

  async mkdir(path: string, options: { recursive?: boolean } = {}, signal?: AbortSignal): Promise<void> {
    await this.op(S.MKDIR_SCRIPT, [path], [options.recursive ? '1' : '0'], 'mkdir', { signal });
  }

  async remove(path: string, options: { recursive?: boolean } = {}, signal?: AbortSignal): Promise<void> {
    await this.op(S.REMOVE_SCRIPT, [path], [options.recursive ? '1' : '0'], 'remove', { signal });
  }

  async rename(from: string, to: string, signal?: AbortSignal): Promise<void> {
    await this.op(S.RENAME_SCRIPT, [from, to], [], 'rename', { signal });
  }

  /** Runs a command into a transcript: what `exec` and detached runs share. */
  execInto(command: string, options: WorkspaceExecOptions, signal: AbortSignal | undefined, transcript: OutputTranscript): Promise<ExecOutcome> {
    return shellExec(this.shell, this.guard, this.options, command, options, signal, transcript);
  }

  async exec(command: string, options: WorkspaceExecOptions = {}, signal?: AbortSignal, onOutput?: ExecOutputListener): Promise<WorkspaceExecResult> {
    const transcript = new OutputTranscript(options.maxOutputBytes ?? this.options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES, onOutput);
    return toExecResult(await this.execInto(command, options, signal, transcript), transcript);
  }
}
