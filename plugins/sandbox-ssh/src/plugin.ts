import { definePlugin } from '../../../sdk/plugin-api.js';
import type { HandlerContext } from '../../../sdk/plugin-api.js';
import { defineWorkspaceBackend, type OpenedWorkspace } from '../../../sdk/sandbox/backend-definition.js';
import { SandboxError } from '../../../sdk/sandbox/errors.js';
import type { WorkspaceAccess } from '../../../sdk/sandbox/mounts.js';
import type { SandboxPrepareParams } from '../../../protocol/v1/sandbox.js';
import type { SshSettings } from './settings.js';
import { sshAdmin } from './admin.js';
import { SshWorkspace } from './ssh-workspace.js';
import type { SyncProgress } from './sync/sync-target.js';

/**
 * Plugin settings: `{ ssh: SshSettings, workspaceAccess? }`. `sandbox/prepare` params.config,
 * as the kernel sends it: `{ agentId, sessionKey, sandbox: { scope, workspaceAccess? }, ssh? }`
 * (`ssh`: the agent's connection overrides; `agentWorkspaceDir` may name a distinct agent workspace).
 */
interface SshPluginSettings {
  ssh?: SshSettings;
  workspaceAccess?: WorkspaceAccess;
  /** Read and write files with more than one hard link (refused with HARD_LINKED by default). */
  allowHardLinks?: boolean;
}
interface PrepareConfig {
  agentId?: string;
  sessionKey?: string;
  agentWorkspaceDir?: string;
  sandbox?: { workspaceAccess?: WorkspaceAccess };
  ssh?: Partial<SshSettings>;
}

const PROGRESS_LOG_EVERY_MS = 5_000;

/** Progress in the operator's log: when a sync starts, finishes, and every few seconds between. */
function progressLogger(ctx: HandlerContext, what: string): (p: SyncProgress) => void {
  let last = 0;
  return (p) => {
    const now = Date.now();
    const ends = p.entriesDone === p.entriesTotal;
    if (!ends && p.entriesDone > 0 && now - last < PROGRESS_LOG_EVERY_MS) return;
    last = now;
    ctx.log.info(`${p.phase === 'push' ? 'sync to' : 'sync back from'} ${what}: ${p.entriesDone}/${p.entriesTotal} entries, ${Math.round(p.bytesDone / 1048576)}/${Math.round(p.bytesTotal / 1048576)} MB`);
  };
}

/** The session's access: read-only placement first, then the kernel's resolved value, then the plugin's; `none` by default, as on docker. */
export function resolveAccess(params: SandboxPrepareParams, settings: SshPluginSettings): WorkspaceAccess {
  if (params.readOnly) return 'ro';
  return (params.config as PrepareConfig | undefined)?.sandbox?.workspaceAccess ?? settings.workspaceAccess ?? 'none';
}

export function createSshPlugin() {
  /** Open (or opening) workspaces by session handle: one prepare per session at a time. */
  const open = new Map<string, Promise<SshWorkspace>>();

  async function openSession(params: SandboxPrepareParams, ctx: HandlerContext): Promise<SshWorkspace> {
    const settings = ctx.settings as SshPluginSettings;
    const prep = (params.config ?? {}) as PrepareConfig;
    const ssh = { ...settings.ssh, ...prep.ssh } as SshSettings;
    if (!params.workspaceDir) throw new SandboxError('CONFIG_INVALID', 'sandbox/prepare for ssh needs workspaceDir (the host directory copied to the remote).');
    if (!ssh.host || !ssh.user) throw new SandboxError('CONFIG_INVALID', 'The ssh sandbox backend needs sandbox.ssh.host and sandbox.ssh.user.');
    return SshWorkspace.open(ssh, {
      sessionKey: prep.sessionKey ?? params.session, agentId: prep.agentId ?? 'main', workspaceDir: params.workspaceDir,
      agentWorkspaceDir: prep.agentWorkspaceDir, workspaceAccess: resolveAccess(params, settings),
    }, {
      signal: ctx.signal, protectedPaths: params.protectedPaths, allowHardLinks: settings.allowHardLinks === true, log: ctx.log,
      onProgress: progressLogger(ctx, `${ssh.user}@${ssh.host} for ${params.workspaceDir}`),
    });
  }

  return definePlugin({
    id: 'sandbox-ssh',
    version: '0.2.0',
    sandboxBackends: [
      defineWorkspaceBackend({
        id: 'ssh',
        admin: sshAdmin(),
        async open(params, ctx): Promise<OpenedWorkspace> {
          let opening = open.get(params.session);
          if (!opening) {
            const started = openSession(params, ctx);
            open.set(params.session, (opening = started));
            started.catch(() => { if (open.get(params.session) === started) open.delete(params.session); });
          }
          const workspace = await opening;
          const close = async () => {
            if (open.get(params.session) !== opening) return;
            open.delete(params.session);
            await workspace.close();
          };
          return { workspace, workdir: '/workspace', reused: workspace.copies.every((h) => h.copy.reused), close };
        },
      }),
    ],
    /** The kernel stops: every open session syncs back (as configured) and lets go. */
    async deactivate() {
      const sessions = [...open.values()];
      open.clear();
      await Promise.all(sessions.map(async (opening) => (await opening.catch(() => undefined))?.close().catch(() => undefined)));
    },
  });
}
