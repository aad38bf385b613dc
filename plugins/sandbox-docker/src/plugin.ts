import type Docker from 'dockerode';
import { definePlugin } from '../../../sdk/plugin-api.js';
import { defineWorkspaceBackend } from '../../../sdk/sandbox/backend-definition.js';
import { resolveSandboxConfig, type SandboxSettings } from '../../../sdk/sandbox/config.js';
import { SandboxError } from '../../../sdk/sandbox/errors.js';
import { JsonFileSandboxRegistry, MemorySandboxRegistry, type SandboxRegistry } from '../../../sdk/sandbox/registry.js';
import { DockerSandbox } from './docker-sandbox.js';
import { DockerWorkspace } from './docker-workspace.js';

/**
 * Plugin settings: the global `sandbox` settings, plus `registryPath` for the state file.
 * `sandbox/prepare` params.config: `{ agentId?, agentWorkspaceDir?, sandbox? }`, where
 * `sandbox` holds the agent's own overrides.
 */
interface PrepareConfig {
  agentId?: string;
  agentWorkspaceDir?: string;
  skillsWorkspaceDir?: string;
  sandbox?: SandboxSettings;
}

export function createDockerPlugin(deps: { docker?: Docker } = {}) {
  let registry: SandboxRegistry | undefined;
  return definePlugin({
    id: 'sandbox-docker',
    version: '0.1.0',
    sandboxBackends: [
      defineWorkspaceBackend({
        id: 'docker',
        async open(params, ctx) {
          const { registryPath, allowHardLinks, ...global } = ctx.settings as SandboxSettings & { registryPath?: string; allowHardLinks?: boolean };
          registry ??= registryPath ? new JsonFileSandboxRegistry(registryPath) : new MemorySandboxRegistry();
          const prep = (params.config ?? {}) as PrepareConfig;
          if (!params.workspaceDir) throw new SandboxError('CONFIG_INVALID', 'sandbox/prepare for docker needs workspaceDir (the host directory mounted at the workdir).');
          const config = resolveSandboxConfig(global, { ...prep.sandbox, ...(params.readOnly ? { workspaceAccess: 'ro' as const } : {}) });
          const sandbox = new DockerSandbox({ config, docker: deps.docker, registry, logger: { warn: (m) => ctx.log.warn(m), info: (m) => ctx.log.info(m) } });
          const workspace = await DockerWorkspace.open(sandbox, {
            sessionKey: params.session, agentId: prep.agentId ?? 'main', workspaceDir: params.workspaceDir,
            agentWorkspaceDir: prep.agentWorkspaceDir, skillsWorkspaceDir: prep.skillsWorkspaceDir,
          }, { protectedPaths: params.protectedPaths, allowHardLinks: allowHardLinks === true });
          return { workspace, workdir: config.docker.workdir, reused: !workspace.handle.created };
        },
      }),
    ],
  });
}
