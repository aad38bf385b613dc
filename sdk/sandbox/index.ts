/** The sandbox SDK: pure helpers and the shared shell workspace used by sandbox backends. */
export { SandboxError, isSandboxError, type SandboxErrorCode } from './errors.js';
export {
  SANDBOX_WORKSPACE_MOUNT, SANDBOX_AGENT_WORKSPACE_MOUNT, SANDBOX_LABELS, HOT_CONTAINER_WINDOW_MS,
  DEFAULT_CONTAINER_PREFIX, DEFAULT_SANDBOX_IMAGE, DEFAULT_DEPLOYMENT_ID, SANDBOX_MOUNT_FORMAT_VERSION,
} from './constants.js';
export {
  resolveSandboxConfig, SandboxSettingsSchema, DockerSettingsSchema, DockerBackendSettingsSchema, DANGEROUS_DOCKER_FLAGS,
  type SandboxSettings, type DockerSettings, type DockerBackendSettings, type DangerousDockerFlag, type ResolvedSandboxConfig, type ResolvedDockerSettings,
} from './config.js';
export { computeSandboxConfigHash, normalizeForHash } from './config-hash.js';
export { resolveSandboxScopeKey, slugifyScopeKey, buildSandboxContainerName, formatRecreateHint, type SandboxScope, type SandboxIdentity } from './naming.js';
export { normalizeHostPath, isPathInside, resolvePathViaExistingAncestor } from './host-paths.js';
export { splitSandboxBindSpec, isReadOnlyBindOptions, type SandboxBindSpecParts } from './bind-spec.js';
export { hardeningViolations, isRootUser, type HardeningConfig } from './validate-hardening.js';
export { loadSeccompProfile, type SeccompProfile } from './seccomp-profile.js';
export { validateSandboxSecurity, sandboxSecurityViolations, BLOCKED_HOST_PATHS, BLOCKED_HOME_SUBPATHS, RESERVED_CONTAINER_TARGETS, type SandboxSecurityConfig, type SandboxSecurityEnv } from './validate-security.js';
export { resolveSandboxMounts, resolveReadOnlySkillMounts, resolveBindMounts, toDockerBinds, type SandboxMount, type SandboxMountInput, type WorkspaceAccess } from './mounts.js';
export { resolveSandboxDockerUser, type ResolveDockerUserInput } from './docker-user.js';
export { buildDockerCreateParams, parseByteSize, type DockerCreateInput } from './docker-create-params.js';
export { SandboxPathGuard, type GuardOptions } from './guard/path-guard.js';
export { protectMounts } from './guard/protect-mounts.js';
export { findMount, normalizeSandboxPath, type GuardMount } from './guard/mount-table.js';
export { ShellWorkspace, type ShellWorkspaceOptions } from './shell/shell-workspace.js';
export { runShell } from './shell/run.js';
export { shQuote, toShellCommandLine } from './shell/quote.js';
export type { SandboxShellBackend, SpawnRequest, SpawnedCommand, ShellRunRequest, ShellRunResult } from './shell/types.js';
export { MemorySandboxRegistry, JsonFileSandboxRegistry, SandboxRegistryEntrySchema, type SandboxRegistry, type SandboxRegistryEntry } from './registry.js';
export { selectForRecreate, selectPrunable, type SandboxInfo, type RecreateTarget, type PruneRule } from './lifecycle.js';
export { defineWorkspaceBackend, toWireError, type OpenedWorkspace, type WorkspaceBackendSpec } from './backend-definition.js';
