import type { ContainerCreateOptions } from 'dockerode';
import { computeSandboxConfigHash } from '../../../sdk/sandbox/config-hash.js';
import type { ResolvedSandboxConfig } from '../../../sdk/sandbox/config.js';
import { SANDBOX_MOUNT_FORMAT_VERSION } from '../../../sdk/sandbox/constants.js';
import { buildDockerCreateParams } from '../../../sdk/sandbox/docker-create-params.js';
import { resolveSandboxDockerUser } from '../../../sdk/sandbox/docker-user.js';
import { resolveSandboxMounts, type SandboxMount } from '../../../sdk/sandbox/mounts.js';
import { buildSandboxContainerName, formatRecreateHint, resolveSandboxScopeKey } from '../../../sdk/sandbox/naming.js';
import { validateSandboxSecurity, type SandboxSecurityEnv } from '../../../sdk/sandbox/validate-security.js';

/** Who a sandbox is for. */
export interface SandboxSessionContext {
  sessionKey: string;
  agentId: string;
  /** The directory mounted at the workdir. */
  workspaceDir: string;
  /** The agent's own workspace (mounted at /agent when distinct); default workspaceDir. */
  agentWorkspaceDir?: string;
  skillsWorkspaceDir?: string;
}

export interface DockerSandboxPlan {
  name: string;
  scopeKey: string;
  mounts: SandboxMount[];
  user?: string;
  configHash: string;
  recreateHint: string;
  create: ContainerCreateOptions;
}

/**
 * Everything about a container that can be decided without the engine: name, mounts,
 * user, config hash and create options. Security is validated here, before any create.
 */
export function planDockerSandbox(config: ResolvedSandboxConfig, ctx: SandboxSessionContext, extra: { labels?: Record<string, string>; security?: SandboxSecurityEnv; now?: number } = {}): DockerSandboxPlan {
  const d = config.docker;
  const agentWorkspaceDir = ctx.agentWorkspaceDir ?? ctx.workspaceDir;
  validateSandboxSecurity(
    { ...d, allowedSourceRoots: d.dangerouslyAllowExternalBindSources ? undefined : [ctx.workspaceDir, agentWorkspaceDir] },
    extra.security,
  );
  const scopeKey = resolveSandboxScopeKey(config.scope, ctx.sessionKey, ctx.agentId);
  const name = buildSandboxContainerName(d.containerPrefix, config.scope, scopeKey);
  const mounts = resolveSandboxMounts({
    workspaceDir: ctx.workspaceDir,
    agentWorkspaceDir,
    workdir: d.workdir,
    workspaceAccess: config.workspaceAccess,
    binds: d.binds,
    skillsWorkspaceDir: ctx.skillsWorkspaceDir,
  });
  const user = resolveSandboxDockerUser({ configuredUser: d.user, workspaceDir: ctx.workspaceDir, backend: config.backend });
  const configHash = computeSandboxConfigHash({
    docker: d,
    user,
    workspaceAccess: config.workspaceAccess,
    workspaceDir: ctx.workspaceDir,
    agentWorkspaceDir,
    mountFormatVersion: SANDBOX_MOUNT_FORMAT_VERSION,
    readOnlyMounts: mounts.filter((m) => m.source === 'skills').map((m) => `${m.hostPath}:${m.containerPath}:ro`),
  });
  const create = buildDockerCreateParams({
    name, docker: d, mounts, user, scope: config.scope, scopeKey, agentId: ctx.agentId, configHash,
    createdAtMs: extra.now ?? Date.now(), labels: extra.labels,
  });
  return { name, scopeKey, mounts, user, configHash, recreateHint: formatRecreateHint(config.scope, scopeKey, ctx.agentId), create };
}
