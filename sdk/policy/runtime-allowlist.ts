/**
 * `applyEmbeddedAttemptToolsAllow`: cut a concrete tool list down to a run's allowlist.
 */
import { createRuntimeToolMatcher } from './matcher.js';
import { readToolAllowlistIntersection } from './intersection.js';
import { normalizeToolPolicyName } from './normalize.js';
import { buildPluginToolGroups, expandPolicyWithPluginGroups, expandShippedCoreToolPolicyNames, type ToolMetaResolver } from './plugin-groups.js';
import { PolicyInputError, describeValue } from './errors.js';

export interface ToolsAllowOptions<T> {
  /** The owning plugin of a tool; enables plugin ids and `group:plugins` in the allowlist. */
  toolMeta?: ToolMetaResolver<T>;
  /** Other names a tool answers to; a tool passes a restriction on its name or any alias. */
  toolAliases?: (tool: T) => readonly unknown[] | undefined | null;
}

function hasWildcard(restriction: readonly unknown[]): boolean {
  for (let i = 0; i < restriction.length; i++) if (normalizeToolPolicyName(restriction[i]) === '*') return true;
  return false;
}

/**
 * Keep the tools a run's allowlist admits, returning the original tool objects in order.
 * - `undefined` keeps every tool (the same array); an explicit empty list disables all;
 * - a restriction that contains `*` is skipped;
 * - an intersection (see `intersectToolAllowlists`) must be satisfied restriction by restriction.
 */
export function applyEmbeddedAttemptToolsAllow<T extends { name?: unknown }>(
  tools: T[],
  toolsAllow?: readonly unknown[] | null,
  options?: ToolsAllowOptions<T>,
): T[] {
  if (!toolsAllow) return tools;
  if (!Array.isArray(toolsAllow)) throw new PolicyInputError('INVALID_TOOL_LIST', 'toolsAllow', `expected an array of tool names, got ${describeValue(toolsAllow)}`);
  const restrictions = readToolAllowlistIntersection(toolsAllow) ?? [toolsAllow];
  let current = tools;
  for (const restriction of restrictions) {
    if (restriction.length === 0) return [];
    if (hasWildcard(restriction)) continue;
    if (current.length === 0) return [];
    const allow = options?.toolMeta
      ? expandPolicyWithPluginGroups({ allow: restriction }, buildPluginToolGroups(current, options.toolMeta))?.allow
      : expandShippedCoreToolPolicyNames(restriction);
    const matches = createRuntimeToolMatcher(allow);
    const aliasesOf = options?.toolAliases;
    current = current.filter((tool) => {
      if (matches(tool?.name)) return true;
      const aliases = aliasesOf?.(tool);
      return Array.isArray(aliases) && aliases.some((alias) => matches(alias));
    });
  }
  return current;
}
