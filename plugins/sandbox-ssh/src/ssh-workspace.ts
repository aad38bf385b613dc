import { posix, resolve } from 'node:path';
import { SANDBOX_AGENT_WORKSPACE_MOUNT, SANDBOX_WORKSPACE_MOUNT } from '../../../sdk/sandbox/constants.js';
import type { GuardMount } from '../../../sdk/sandbox/guard/mount-table.js';
import { SandboxPathGuard } from '../../../sdk/sandbox/guard/path-guard.js';
import { protectMounts } from '../../../sdk/sandbox/guard/protect-mounts.js';
import { resolveReadOnlySkillMounts, type WorkspaceAccess } from '../../../sdk/sandbox/mounts.js';
import { resolveSandboxScopeKey, slugifyScopeKey, type SandboxScope } from '../../../sdk/sandbox/naming.js';
import { ShellWorkspace, type ShellWorkspaceOptions } from '../../../sdk/sandbox/shell/shell-workspace.js';
import { SshConnection } from './connection.js';
import { SshSettingsSchema, type ResolvedSshSettings, type SshSettings } from './settings.js';
import { SshShell } from './ssh-shell.js';
import { downloadDirectory, uploadDirectory } from './sync.js';

export interface SshSessionContext {
  sessionKey: string;
  agentId: string;
  workspaceDir: string;
  agentWorkspaceDir?: string;
  scope?: SandboxScope;
  workspaceAccess?: WorkspaceAccess;
}

/**
 * The workspace service of an ssh-sandboxed session. The remote host holds a copy of the
 * workspace (uploaded at open, synced back as configured); file operations and commands
 * run there behind the same path guard as docker, in the same `/workspace` namespace.
 */
export class SshWorkspace extends ShellWorkspace {
  private constructor(
    readonly connection: SshConnection,
    guard: SandboxPathGuard,
    private readonly settings: ResolvedSshSettings,
    private readonly ctx: SshSessionContext,
    readonly remoteDir: string,
    private readonly readOnlyRelative: string[],
    options: ShellWorkspaceOptions,
  ) {
    super(new SshShell(connection), guard, options);
  }

  static async open(settingsInput: SshSettings, ctx: SshSessionContext, options: ShellWorkspaceOptions = {}): Promise<SshWorkspace> {
    const settings = SshSettingsSchema.parse(settingsInput);
    const access = ctx.workspaceAccess ?? 'rw';
    const scope = ctx.scope ?? 'session';
    const agentDir = ctx.agentWorkspaceDir ?? ctx.workspaceDir;
    const remoteDir = posix.join(settings.remoteRoot, scope === 'shared' ? 'shared' : slugifyScopeKey(resolveSandboxScopeKey(scope, ctx.sessionKey, ctx.agentId)));
    const connection = new SshConnection(settings);
    const uploads: Array<[string, string]> = [];
    const mounts: GuardMount[] = [];
    const add = (hostDir: string, path: string, writable: boolean, source: GuardMount['source']) => {
      const target = posix.join(remoteDir, `m${mounts.length}`);
      uploads.push([hostDir, target]);
      mounts.push({ path, target, writable, source });
    };
    add(ctx.workspaceDir, SANDBOX_WORKSPACE_MOUNT, access === 'rw', 'workspace');
    if (access !== 'none' && resolve(agentDir) !== resolve(ctx.workspaceDir)) add(agentDir, SANDBOX_AGENT_WORKSPACE_MOUNT, access === 'rw', 'agent');
    const skills = resolveReadOnlySkillMounts({ workspaceDir: ctx.workspaceDir, agentWorkspaceDir: agentDir, workdir: SANDBOX_WORKSPACE_MOUNT, workspaceAccess: access });
    for (const s of skills) add(s.hostPath, s.containerPath, false, 'skills');
    try {
      for (const [local, remote] of uploads) await uploadDirectory(connection, local, remote);
      const shell = new SshShell(connection);
      // Each copy shows the host directory it was uploaded from, protected paths included.
      const sources = new Map(mounts.map((m, i) => [m, uploads[i][0]]));
      const protectedMounts = protectMounts(mounts, ctx.workspaceDir, options.protectedPaths, (m) => sources.get(m));
      const guard = await SandboxPathGuard.open(shell, SANDBOX_WORKSPACE_MOUNT, protectedMounts, { allowHardLinks: options.allowHardLinks });
      // Skill paths inside the workspace copy are never synced back over the host's files.
      const readOnlyRelative = skills.map((s) => posix.relative(SANDBOX_WORKSPACE_MOUNT, s.containerPath)).filter((r) => r && !r.startsWith('..'));
      // Protected paths neither: a command run remotely must not carry a rewritten .git or config home.
      readOnlyRelative.push(...(options.protectedPaths ?? []).map((p) => posix.normalize(p.replace(/\\/g, '/')).replace(/\/+$/, '')));
      return new SshWorkspace(connection, guard, settings, ctx, remoteDir, readOnlyRelative, options);
    } catch (error) {
      connection.close();
      throw error;
    }
  }

  /** Copies the remote workspace back to the host (only when the workspace is writable). */
  async syncBack(): Promise<void> {
    if ((this.ctx.workspaceAccess ?? 'rw') !== 'rw') return;
    await downloadDirectory(this.connection, posix.join(this.remoteDir, 'm0'), this.ctx.workspaceDir, this.readOnlyRelative);
  }

  /** Syncs back when configured, then closes the connection. The remote copy is kept for reuse. */
  async close(): Promise<void> {
    try {
      if (this.settings.syncBack === 'on-close') await this.syncBack();
    } finally {
      this.connection.close();
    }
  }

}
