/**
 * `pincer/sdk`: what a plugin author imports. Named exports only (a test snapshots this list).
 *
 * - the plugin API: `definePlugin`, `serve`, typed tools, hooks, backends, skill sources;
 * - the pure policy primitives shared with the kernel (`toolPolicy`, `applyEmbeddedAttemptToolsAllow`,
 *   `splitSandboxBindSpec`, allowlist intersections);
 * - the in-memory test harness lives at `pincer/sdk/testing`.
 */
export {
  definePlugin, defineTool, serve, bindPlugin, pluginContributions, pluginManifest, pluginDataDir, CancelledError, NodeError, PluginError, WorkspaceError,
} from './plugin-api.js';
export type {
  ChannelDefinition, ChannelRequest, NodeCommandHandler, NodeDefinition,
  PluginManifestFile, BindOptions, PluginRuntime, HandlerContext, HookDefinition, PluginDefinition, PluginHooks, PluginLogger,
  SandboxAdminHandlers, SandboxBackendDefinition, SandboxOperations, SkillSourceChange, SkillSourceDefinition, ToolContext, ToolDefinition, ToolReturn,
} from './plugin-api.js';

export {
  toolPolicy,
  createToolPolicyMatcher,
  createRuntimeToolMatcher,
  expandToolGroups,
  normalizeToolPolicyName,
  normalizeToolList,
  applyEmbeddedAttemptToolsAllow,
  intersectToolAllowlists,
  attachToolAllowlistIntersection,
  readToolAllowlistIntersection,
  buildPluginToolGroups,
  expandPluginGroups,
  expandPolicyWithPluginGroups,
  filterToolsByPolicy,
  isToolAllowedByPolicyName,
  isToolAllowedByPolicies,
  splitSandboxBindSpec,
  PolicyInputError,
} from './policy/index.js';
export type {
  ToolPolicyLike, ToolNameMatcher, PluginToolGroups, ToolMetaResolver, ToolsAllowOptions, SandboxBindSpecParts, PolicyInputErrorCode,
} from './policy/index.js';

// Result builders every tool family uses: one wording of success and refusal.
export { okResult, errorResult, workspaceErrorResult } from './tool-results.js';

// For sandbox backend authors: host-side path admission (seed 003 path mappings) and guarded I/O.
export {
  mapWorkspacePath, resolvePathMapping, PathGuard, HostFsBridge, readBounded, writeFileAtomic, readDirectoryEntries,
  explainWorkspaceError, workspaceErrorCodeOf, DEFAULT_MAX_READ_BYTES,
} from './fs-bridge/index.js';
export type { PathMapping, MappedPath, HostFsBridgeOptions } from './fs-bridge/index.js';

// For sandbox backend authors: security validation, config hashing, naming, mounts, the in-sandbox path guard.
export {
  SandboxError, validateSandboxSecurity, computeSandboxConfigHash, buildSandboxContainerName, resolveSandboxMounts,
  resolveSandboxDockerUser, buildDockerCreateParams, SandboxPathGuard, ShellWorkspace, defineWorkspaceBackend,
} from './sandbox/index.js';
export type { SandboxErrorCode, SandboxMount, WorkspaceBackendSpec, ShellWorkspaceOptions } from './sandbox/index.js';
