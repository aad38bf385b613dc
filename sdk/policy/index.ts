/**
 * The pure policy primitives, shared by plugin authors and the kernel: no I/O, no state
 * beyond bounded compile caches.
 */
import { createToolPolicyMatcher } from './matcher.js';
import { expandToolGroups } from './groups.js';
import { normalizeToolPolicyName, normalizeToolList } from './normalize.js';

/** The reference-compatible policy namespace: `toolPolicy.expandToolGroups`, `toolPolicy.createToolPolicyMatcher`. */
export const toolPolicy = Object.freeze({
  expandToolGroups,
  createToolPolicyMatcher,
  normalizeToolName: normalizeToolPolicyName,
  normalizeToolList,
});

export { createToolPolicyMatcher, createRuntimeToolMatcher, filterToolsByPolicy, isToolAllowedByPolicyName, isToolAllowedByPolicies } from './matcher.js';
export type { ToolPolicyLike, ToolNameMatcher } from './matcher.js';
export { expandToolGroups } from './groups.js';
export { normalizeToolPolicyName, normalizeToolList, foldToolName, uniqueStrings } from './normalize.js';
export { intersectToolAllowlists, attachToolAllowlistIntersection, readToolAllowlistIntersection } from './intersection.js';
export { buildPluginToolGroups, expandPluginGroups, expandPolicyWithPluginGroups, expandShippedCoreToolPolicyNames } from './plugin-groups.js';
export type { PluginToolGroups, ToolMetaResolver } from './plugin-groups.js';
export { applyEmbeddedAttemptToolsAllow } from './runtime-allowlist.js';
export type { ToolsAllowOptions } from './runtime-allowlist.js';
export { splitSandboxBindSpec } from './bind-spec.js';
export type { SandboxBindSpecParts } from './bind-spec.js';
export { PolicyInputError } from './errors.js';
export type { PolicyInputErrorCode } from './errors.js';
export { compileGlobs, matchesGlobs } from './glob.js';
export type { CompiledGlobs } from './glob.js';
export {
  MCP_TOOL_NAME_SEPARATOR, MAX_MCP_SERVER_NAME_CHARS, MAX_MCP_TOOL_NAME_CHARS, sanitizeMcpNameFragment, buildSafeMcpServerNames,
  safeMcpServerName, buildSafeMcpToolName,
} from './mcp-names.js';
export { createMcpServerToolDenyMatcher } from './mcp-server-deny.js';
