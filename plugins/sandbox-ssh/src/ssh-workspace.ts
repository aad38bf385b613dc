import { realpathSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { posix } from 'node:path';
import type {
  ExecOutputListener, WorkspaceDirEntry, WorkspaceExecOptions, WorkspaceExecResult, WorkspaceReadOptions, WorkspaceReadResult, WorkspaceStat, WorkspaceWriteOptions,
} from '../../../protocol/v1/workspace-types.js';
import { SANDBOX_AGENT_WORKSPACE_MOUNT, SANDBOX_WORKSPACE_MOUNT } from '../../../sdk/sandbox/constants.js';
import { isSandboxError } from '../../../sdk/sandbox/errors.js';
import type { GuardMount } from '../../../sdk/sandbox/guard/mount-table.js';
import { SandboxPathGuard } from '../../../sdk/sandbox/guard/path-guard.js';
import { protectMounts } from '../../../sdk/sandbox/guard/protect-mounts.js';
import { resolveReadOnlySkillMounts, type WorkspaceAccess } from '../../../sdk/sandbox/mounts.js';
import type { SandboxScope } from '../../../sdk/sandbox/naming.js';
import { ShellWorkspace, type ShellWorkspaceOptions } from '../../../sdk/sandbox/shell/shell-workspace.js';
import { leaseConnection, type ConnectionLease } from './connection-pool.js';
import type { SshConnection } from './connection.js';
import { SshSettingsSchema, type ResolvedSshSettings, type SshSettings } from './settings.js';
import { SshShell } from './ssh-shell.js';
import { acquireCopy, type CopyHandle } from './sync/copy-registry.js';
import { hardLinkedRefusal } from './sync/hard-linked.js';
import type { PullReport } from './sync/pull.js';
import type { SyncProgress } from './sync/sync-target.js';

export interface SshSessionContext {
  /** The session's real key (for logs; copies are named by what they hold, not by session). */
  sessionKey: string;
  agentId: string;
  workspaceDir: string;
  agentWorkspaceDir?: string;
  /** Accepted for compatibility; a copy is shared per workspace and access, whatever the scope. */
  scope?: SandboxScope;
  /** The session's resolved access; `none` when unset, as on docker. */
  workspaceAccess?: WorkspaceAccess;
}

export interface SshWorkspaceOptions extends ShellWorkspaceOptions {
  /** Cancels the opening (and its first sync, once nobody else waits for it). */
  signal?: AbortSignal;
  /** Workspace-relative paths a sync back never writes (the loaded config, `.pincer`, `.git`). */
  protectedPaths?: readonly string[];
  log?: { info(message: string): void; warn(message: string): void };
  onProgress?: (progress: SyncProgress) => void;
  /** Where sync states live; default the plugin's data directory. */
  dataDir?: string;
  /** Read and write files with more than one hard link (refused with HARD_LINKED by default). */
  allowHardLinks?: boolean;
}

/**
 * The workspace service of an ssh-sandboxed session. The remote host holds a copy of the
 * workspace (and of a distinct agent workspace), shared by every session that may share it;
 * before every operation the host's changes are pushed (nothing is sent when nothing
 * changed), and remote changes come back at the points docs/sandbox.md names. File
 * operations and commands run there behind the same path guard as docker.
 */
export class SshWorkspace extends ShellWorkspace {
  private constructor(
    readonly connection: SshConnection,
    guard: SandboxPathGuard,
    private readonly settings: ResolvedSshSettings,
    readonly access: WorkspaceAccess,
    private readonly lease: ConnectionLease,
    readonly copies: readonly CopyHandle[],
    private readonly detach: () => void,
    private readonly sshOptions: SshWorkspaceOptions,
  ) {
    super(new SshShell(connection), guard, sshOptions);
  }

  static async open(settingsInput: SshSettings, ctx: SshSessionContext, options: SshWorkspaceOptions = {}): Promise<SshWorkspace> {
    const settings = SshSettingsSchema.parse(settingsInput);
    const access = ctx.workspaceAccess ?? 'none';
    const agentDir = ctx.agentWorkspaceDir ?? ctx.workspaceDir;
    const dirs = [ctx.workspaceDir, ...(access !== 'none' && resolve(agentDir) !== resolve(ctx.workspaceDir) ? [agentDir] : [])];
    const lease = leaseConnection(settings);
    const handles: CopyHandle[] = [];
    const detachers: Array<() => void> = [];
    try {
      for (const hostDir of dirs) {
        const handle = await acquireCopy({ settings, hostDir, access: access === 'rw' ? 'rw' : 'ro', agentId: ctx.agentId, dataDir: options.dataDir, allowHardLinks: options.allowHardLinks });
        handles.push(handle);
        for (const p of options.protectedPaths ?? []) handle.copy.protectedPaths.add(p);
        if (options.onProgress) detachers.push(handle.copy.onProgress(options.onProgress));
      }
      for (const { copy } of handles) await copy.freshForSession(options.signal, settings.sync.waitMs);
      const shell = new SshShell(lease.connection);
      const mounts = mountTable(ctx, access, agentDir, handles);
      // Each mount shows the host directory its copy was made from, protected paths included.
      const protectedMounts = protectMounts([...mounts.keys()], ctx.workspaceDir, options.protectedPaths, (m) => mounts.get(m));
      const guard = await SandboxPathGuard.open(shell, SANDBOX_WORKSPACE_MOUNT, protectedMounts, { allowHardLinks: options.allowHardLinks });
      return new SshWorkspace(lease.connection, guard, settings, access, lease, handles, () => detachers.forEach((d) => d()), options);
    } catch (error) {
      detachers.forEach((d) => d());
      lease.release();
      // Still syncing: the sync goes on in the background (the copies are let go when it ends),
      // and the caller's next attempt joins it instead of starting over.
      if (isSandboxError(error, 'SYNC_IN_PROGRESS')) for (const h of handles) void h.copy.settled().finally(() => h.release());
      else await Promise.all(handles.map((h) => h.release()));
      throw error;
    }
  }

  /** Pushes the host's changes (if any) to every copy this session uses. */
  private async fresh(signal?: AbortSignal): Promise<void> {
    for (const { copy } of this.copies) await copy.fresh(signal, this.settings.sync.waitMs);
  }

  /** Refuses a host file the sync held back for its hard links (HARD_LINKED), by the path the model gave. */
  private refuseHardLinked(path: string, action: string): void {
    const refusal = hardLinkedRefusal(this.guard.target(path, action), path, action, this.copies.map((h) => h.copy));
    if (refusal) throw refusal;
  }

  override async read(path: string, options?: WorkspaceReadOptions, signal?: AbortSignal): Promise<WorkspaceReadResult> {
    await this.fresh(signal);
    this.refuseHardLinked(path, 'read');
    return super.read(path, options, signal);
  }
  override async write(path: string, content: string, options?: WorkspaceWriteOptions, signal?: AbortSignal): Promise<{ path: string; bytes: number }> {
    await this.fresh(signal);
    this.refuseHardLinked(path, 'write');
    return super.write(path, content, options, signal);
  }
  override async stat(path: string, signal?: AbortSignal): Promise<WorkspaceStat> {
    await this.fresh(signal);
    return super.stat(path, signal);
  }
  override async readDirectory(path: string, signal?: AbortSignal): Promise<WorkspaceDirEntry[]> {
    await this.fresh(signal);
    return super.readDirectory(path, signal);
  }
  override async mkdir(path: string, options?: { recursive?: boolean }, signal?: AbortSignal): Promise<void> {
    await this.fresh(signal);
    return super.mkdir(path, options, signal);
  }
  override async remove(path: string, options?: { recursive?: boolean }, signal?: AbortSignal): Promise<void> {
    await this.fresh(signal);
    return super.remove(path, options, signal);
  }
  override async rename(from: string, to: string, signal?: AbortSignal): Promise<void> {
    await this.fresh(signal);
    return super.rename(from, to, signal);
  }
  override async exec(command: string, options?: WorkspaceExecOptions, signal?: AbortSignal, onOutput?: ExecOutputListener): Promise<WorkspaceExecResult> {
    await this.fresh(signal);
    return super.exec(command, options, signal, onOutput);
  }

  /** Copies the remote changes back to the host (`rw` only), through the host's path guard. */
  async syncBack(signal?: AbortSignal): Promise<PullReport> {
    const report: PullReport = { applied: [], conflicts: [], refused: [] };
    if (this.access !== 'rw') return report;
    for (const { copy } of this.copies) {
      const one = await copy.syncBack(signal);
      report.applied.push(...one.applied);
      report.conflicts.push(...one.conflicts);
      report.refused.push(...one.refused);
    }
    return report;
  }

  /**
   * Syncs back when configured, then lets go of the copies (the last user of a copy stops
   * its running sync) and of the connection. Copies stay on the remote for the next session.
   */
  async close(): Promise<PullReport | undefined> {
    try {
      if (this.settings.syncBack !== 'on-close' || this.access !== 'rw') return undefined;
      const report = await this.syncBack();
      const log = this.sshOptions.log;
      if (report.conflicts.length) log?.warn(`sync back kept the host's version of ${report.conflicts.length} path(s) changed on both sides (the remote copy keeps its own): ${report.conflicts.slice(0, 10).join(', ')}`);
      for (const r of report.refused.slice(0, 20)) log?.warn(`sync back refused ${r.path}: ${r.reason}`);
      return report;
    } finally {
      this.detach();
      await Promise.all(this.copies.map((h) => h.release()));
      this.lease.release();
    }
  }
}

/**
 * The guard's mounts, as docker's, each with the host directory it shows: the workspace at
 * `/workspace` (writable only for `rw`), a distinct agent workspace at `/agent` unless access
 * is `none`, and the skill directories read-only over a writable workspace, each pointing
 * into the copy that holds it.
 */
function mountTable(ctx: SshSessionContext, access: WorkspaceAccess, agentDir: string, handles: readonly CopyHandle[]): Map<GuardMount, string> {
  const [workspace, agent] = handles;
  const mounts = new Map<GuardMount, string>([[{ path: SANDBOX_WORKSPACE_MOUNT, target: workspace!.copy.treeDir, writable: access === 'rw', source: 'workspace' }, workspace!.copy.target.hostDir]]);
  if (agent) mounts.set({ path: SANDBOX_AGENT_WORKSPACE_MOUNT, target: agent.copy.treeDir, writable: access === 'rw', source: 'agent' }, agent.copy.target.hostDir);
  const skills = resolveReadOnlySkillMounts({ workspaceDir: ctx.workspaceDir, agentWorkspaceDir: agentDir, workdir: SANDBOX_WORKSPACE_MOUNT, workspaceAccess: access });
  for (const skill of skills) {
    const real = realpathSync(skill.hostPath);
    const holder = handles.find((h) => !relative(h.copy.target.hostDir, real).startsWith('..'));
    if (!holder) continue; // outside every copied directory: not visible remotely at all
    mounts.set({ path: skill.containerPath, target: posix.join(holder.copy.treeDir, relative(holder.copy.target.hostDir, real).split('\\').join('/')), writable: false, source: 'skills' }, real);
  }
  return mounts;
}
