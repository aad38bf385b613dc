/**
 * `pincer/sdk`: what a plugin author imports. Named exports only (a test snapshots this list).
 *
 * - the plugin API: `definePlugin`, `serve`, typed tools, hooks, backends, skill sources;
 * - the pure policy primitives shared with the kernel (`toolPolicy`, `applyEmbeddedAttemptToolsAllow`,
 *   `splitSandboxBindSpec`, allowlist intersections);
 * - the in-memory test harness lives at `pincer/sdk/testing`.
 */
export {
  definePlugin, defineTool, serve, bindPlugin, CancelledError, PluginError, WorkspaceError,
} from './plugin-api.js';
export type {
  BindOptions, PluginRuntime, HandlerContext, HookDefinition, PluginDefinition, PluginHooks, PluginLogger,
  SandboxBackendDefinition, SandboxOperations, SkillSourceDefinition, ToolContext, ToolDefinition, ToolReturn,
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
