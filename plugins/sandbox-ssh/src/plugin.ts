import { definePlugin } from '../../../sdk/plugin-api.js';
import { defineWorkspaceBackend } from '../../../sdk/sandbox/backend-definition.js';
import { SandboxError } from '../../../sdk/sandbox/errors.js';
import type { SandboxScope } from '../../../sdk/sandbox/naming.js';
import type { SshSettings } from './settings.js';
import { sshAdmin } from './admin.js';
import { SshWorkspace } from './ssh-workspace.js';

/**
 * Plugin settings: `{ ssh: SshSettings, scope?, workspaceAccess? }`.
 * `sandbox/prepare` params.config: `{ agentId?, agentWorkspaceDir?, ssh? }` (per-agent overrides).
 */
interface SshPluginSettings {
  ssh?: SshSettings;
  scope?: SandboxScope;
  workspaceAccess?: 'none' | 'ro' | 'rw';
  /** Read and write files with more than one hard link (refused with HARD_LINKED by default). */
  allowHardLinks?: boolean;
}

export function createSshPlugin() {
  return definePlugin({
    id: 'sandbox-ssh',
    version: '0.1.0',
    sandboxBackends: [
      defineWorkspaceBackend({
        id: 'ssh',
        admin: sshAdmin(),
        async open(params, ctx) {
          const settings = ctx.settings as SshPluginSettings;
          const prep = (params.config ?? {}) as { agentId?: string; agentWorkspaceDir?: string; ssh?: Partial<SshSettings> };
          const ssh = { ...settings.ssh, ...prep.ssh } as SshSettings;
          if (!params.workspaceDir) throw new SandboxError('CONFIG_INVALID', 'sandbox/prepare for ssh needs workspaceDir (the host directory copied to the remote).');
          if (!ssh.host || !ssh.user) throw new SandboxError('CONFIG_INVALID', 'The ssh sandbox backend needs sandbox.ssh.host and sandbox.ssh.user.');
          const workspace = await SshWorkspace.open(ssh, {
            sessionKey: params.session, agentId: prep.agentId ?? 'main', workspaceDir: params.workspaceDir,
            agentWorkspaceDir: prep.agentWorkspaceDir, scope: settings.scope,
            workspaceAccess: params.readOnly ? 'ro' : (settings.workspaceAccess ?? 'rw'),
          }, { protectedPaths: params.protectedPaths, allowHardLinks: settings.allowHardLinks === true });
          return { workspace, workdir: '/workspace', close: () => workspace.close() };
        },
      }),
    ],
  });
}
