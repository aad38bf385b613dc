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

const SHIPPED_CACHE_LIMIT = 256;
const shippedCache = new Map<string, string[]>();

/**
 * Without plugin metadata a restriction's matcher depends on its content only, so the
 * shipped-name expansion is cached by content (a restriction carrying its own nested
 * intersection is rare and bypasses the cache).
 */
function restrictionMatcher(restriction: readonly unknown[]) {
  if (readToolAllowlistIntersection(restriction) || !restriction.every((entry) => typeof entry === 'string')) {
    return createRuntimeToolMatcher(expandShippedCoreToolPolicyNames(restriction));
  }
  // JSON, not a join: no character inside an entry may pass for a separator (see compiled-lists.ts).
  const key = JSON.stringify(restriction);
  let shipped = shippedCache.get(key);
  if (!shipped) {
    shipped = expandShippedCoreToolPolicyNames(restriction) ?? [];
    if (shippedCache.size >= SHIPPED_CACHE_LIMIT) shippedCache.delete(shippedCache.keys().next().value as string);
    shippedCache.set(key, shipped);
  }
  return createRuntimeToolMatcher(shipped);
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
    const matches = options?.toolMeta
      ? createRuntimeToolMatcher(expandPolicyWithPluginGroups({ allow: restriction }, buildPluginToolGroups(current, options.toolMeta))?.allow)
      : restrictionMatcher(restriction);
    const aliasesOf = options?.toolAliases;
    current = current.filter((tool) => {
      if (matches(tool?.name)) return true;
      const aliases = aliasesOf?.(tool);
      return Array.isArray(aliases) && aliases.some((alias) => matches(alias));
    });
  }
  return current;
}
