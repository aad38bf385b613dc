import { readFileSync } from 'node:fs';
import type { ContainerCreateOptions } from 'dockerode';
import { computeSandboxConfigHash } from '../../../sdk/sandbox/config-hash.js';
import type { ResolvedSandboxConfig } from '../../../sdk/sandbox/config.js';
import { SANDBOX_MOUNT_FORMAT_VERSION } from '../../../sdk/sandbox/constants.js';
import { buildDockerCreateParams } from '../../../sdk/sandbox/docker-create-params.js';
import { resolveSandboxDockerUser } from '../../../sdk/sandbox/docker-user.js';
import { resolvePathViaExistingAncestor } from '../../../sdk/sandbox/host-paths.js';
import { resolveSandboxMounts, type SandboxMount } from '../../../sdk/sandbox/mounts.js';
import { buildSandboxContainerName, formatRecreateHint, resolveSandboxScopeKey, type SandboxScope } from '../../../sdk/sandbox/naming.js';
import { loadSeccompProfile } from '../../../sdk/sandbox/seccomp-profile.js';
import { validateSandboxSecurity, type SandboxSecurityEnv } from '../../../sdk/sandbox/validate-security.js';
import { protectedContainerMounts } from './protected-mounts.js';

/** Who a sandbox is for. */
export interface SandboxSessionContext {
  sessionKey: string;
  agentId: string;
  /** The directory mounted at the workdir. */
  workspaceDir: string;
  /** The agent's own workspace (mounted at /agent when distinct); default workspaceDir. */
  agentWorkspaceDir?: string;
  skillsWorkspaceDir?: string;
  /** Workspace-relative paths a command may not change (held read-only in a read-write workspace). */
  protectedPaths?: readonly string[];
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
 * The container name this config gives a session (see buildSandboxContainerName). `scope`
 * defaults to the config's; the CLI passes a listed container's own scope label to recognise
 * containers created before a scope change.
 */
export function sandboxContainerName(config: ResolvedSandboxConfig, ctx: SandboxSessionContext, scope: SandboxScope = config.scope): string {
  const workspaceDir = resolvePathViaExistingAncestor(ctx.workspaceDir);
  return buildSandboxContainerName({
    prefix: config.docker.containerPrefix,
    deploymentId: config.deploymentId,
    scope,
    scopeKey: resolveSandboxScopeKey(scope, ctx.sessionKey, ctx.agentId),
    agentId: ctx.agentId,
    workspaceDir,
    agentWorkspaceDir: ctx.agentWorkspaceDir ? resolvePathViaExistingAncestor(ctx.agentWorkspaceDir) : workspaceDir,
    workspaceAccess: config.workspaceAccess,
  });
}

function readOnce(read: (path: string) => string): (path: string) => string {
  const seen = new Map<string, string>();
  return (path) => seen.get(path) ?? seen.set(path, read(path)).get(path)!;
}

/**
 * Everything about a container that can be decided without the engine: name, mounts,
 * user, config hash and create options. Security is validated here, before any create.
 */
export function planDockerSandbox(config: ResolvedSandboxConfig, ctx: SandboxSessionContext, extra: { labels?: Record<string, string>; security?: SandboxSecurityEnv; now?: number } = {}): DockerSandboxPlan {
  const d = config.docker;
  const agentWorkspaceDir = ctx.agentWorkspaceDir ?? ctx.workspaceDir;
  // The profile is read once: the file the validation judged is the one the engine gets.
  const security = { ...extra.security, readProfile: readOnce(extra.security?.readProfile ?? ((p: string) => readFileSync(p, 'utf8'))) };
  validateSandboxSecurity({ ...d, allowedSourceRoots: d.dangerouslyAllowExternalBindSources ? undefined : [ctx.workspaceDir, agentWorkspaceDir] }, security);
  const scopeKey = resolveSandboxScopeKey(config.scope, ctx.sessionKey, ctx.agentId);
  const name = sandboxContainerName(config, ctx);
  const mounts = resolveSandboxMounts({
    workspaceDir: ctx.workspaceDir,
    agentWorkspaceDir,
    workdir: d.workdir,
    workspaceAccess: config.workspaceAccess,
    binds: d.binds,
    skillsWorkspaceDir: ctx.skillsWorkspaceDir,
  });
  const user = resolveSandboxDockerUser({ configuredUser: d.user, workspaceDir: ctx.workspaceDir, backend: config.backend });
  const seccomp = d.seccompProfile === undefined ? undefined : loadSeccompProfile(d.seccompProfile, security.readProfile);
  const seccompOption = seccomp === undefined ? undefined : seccomp.kind === 'unconfined' ? 'unconfined' : seccomp.json;
  // Not in `mounts` (the path guard's table): the guard refuses protected paths itself.
  const protectedMounts = config.workspaceAccess === 'rw' ? protectedContainerMounts(ctx.workspaceDir, d.workdir, ctx.protectedPaths) : { binds: [], tmpfs: {} };
  const configHash = computeSandboxConfigHash({
    protectedMounts,
    docker: d,
    seccompOption,
    user,
    deploymentId: config.deploymentId,
    workspaceAccess: config.workspaceAccess,
    workspaceDir: ctx.workspaceDir,
    agentWorkspaceDir,
    mountFormatVersion: SANDBOX_MOUNT_FORMAT_VERSION,
    readOnlyMounts: mounts.filter((m) => m.source === 'skills').map((m) => `${m.hostPath}:${m.containerPath}:ro`),
  });
  const create = buildDockerCreateParams({
    name, docker: d, mounts, user, scope: config.scope, scopeKey, agentId: ctx.agentId, configHash, deploymentId: config.deploymentId,
    seccompOption, createdAtMs: extra.now ?? Date.now(), labels: extra.labels,
  });
  create.HostConfig = {
    ...create.HostConfig,
    Binds: [...(create.HostConfig?.Binds ?? []), ...protectedMounts.binds],
    Tmpfs: { ...create.HostConfig?.Tmpfs, ...protectedMounts.tmpfs },
  };
  return { name, scopeKey, mounts, user, configHash, recreateHint: formatRecreateHint(config.scope, scopeKey, ctx.agentId), create };
}
