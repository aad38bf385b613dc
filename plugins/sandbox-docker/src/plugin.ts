import type Docker from 'dockerode';
import { definePlugin } from '../../../sdk/plugin-api.js';
import { defineWorkspaceBackend } from '../../../sdk/sandbox/backend-definition.js';
import { resolveSandboxConfig, type DockerBackendSettings, type SandboxSettings } from '../../../sdk/sandbox/config.js';
import { SandboxError } from '../../../sdk/sandbox/errors.js';
import type { SandboxRegistry } from '../../../sdk/sandbox/registry.js';
import { dockerAdmin } from './admin.js';
import { DockerSandbox } from './docker-sandbox.js';
import { DockerWorkspace } from './docker-workspace.js';
import { openDockerRegistry } from './registry-location.js';

/**
 * Plugin settings: the base sandbox layer plus `deploymentId` and `registryPath`
 * (DockerBackendSettingsSchema). `sandbox/prepare` params.config:
 * `{ agentId?, agentWorkspaceDir?, skillsWorkspaceDir?, sandbox? }`, where `sandbox` is the
 * agent's layer as the kernel merged it (kernel/config/sandbox-merge.ts).
 */
interface PrepareConfig {
  agentId?: string;
  /** The run's real session key; `params.session` is the kernel's opaque handle for (agent, key, placement). */
  sessionKey?: string;
  agentWorkspaceDir?: string;
  skillsWorkspaceDir?: string;
  sandbox?: SandboxSettings;
}

export function createDockerPlugin(deps: { docker?: Docker; env?: NodeJS.ProcessEnv } = {}) {
  let registry: SandboxRegistry | undefined;
  return definePlugin({
    id: 'sandbox-docker',
    version: '0.1.0',
    sandboxBackends: [
      defineWorkspaceBackend({
        id: 'docker',
        reopenWhenGone: true,
        admin: dockerAdmin(deps),
        async open(params, ctx) {
          const settings = ctx.settings as DockerBackendSettings;
          const prep = (params.config ?? {}) as PrepareConfig;
          if (!params.workspaceDir) throw new SandboxError('CONFIG_INVALID', 'sandbox/prepare for docker needs workspaceDir (the host directory mounted at the workdir).');
          const config = resolveSandboxConfig(settings, { ...prep.sandbox, ...(params.readOnly ? { workspaceAccess: 'ro' as const } : {}) });
          registry ??= openDockerRegistry(settings.registryPath, deps.env ?? process.env);
          const logger = { warn: (m: string) => ctx.log.warn(m), info: (m: string) => ctx.log.info(m) };
          const sandbox = new DockerSandbox({ config, docker: deps.docker, registry, logger });
          const workspace = await DockerWorkspace.open(sandbox, {
            sessionKey: prep.sessionKey ?? params.session, agentId: prep.agentId ?? 'main', workspaceDir: params.workspaceDir,
            agentWorkspaceDir: prep.agentWorkspaceDir, skillsWorkspaceDir: prep.skillsWorkspaceDir,
          }, { protectedPaths: params.protectedPaths, allowHardLinks: settings.allowHardLinks === true });
          const onUse = () => {
            try {
              sandbox.touch(workspace.containerName);
            } catch (error) {
              // Bookkeeping must not fail the user's call; the next prepare reports the registry problem.
              logger.warn(`could not record the last use of ${workspace.containerName}: ${(error as Error).message}`);
            }
          };
          return { workspace, workdir: config.docker.workdir, reused: !workspace.handle.created, onUse };
        },
      }),
    ],
  });
}
