/**
 * Plugin groups: `group:plugins` (every plugin tool) and a plugin id (that plugin's tools)
 * expand against a concrete tool list. Also the shipped policy renames: an allow of a
 * name the reference renamed or split keeps admitting its successor tools.
 */
import { PLUGINS_GROUP } from '../../protocol/vocabulary/index.js';
import { attachToolAllowlistIntersection, readToolAllowlistIntersection } from './intersection.js';
import { foldToolName, normalizeToolPolicyName, uniqueStrings } from './normalize.js';
import { PolicyInputError } from './errors.js';

/**
 * The owning plugin of a tool, or `undefined` for a core tool. A core tool that a plugin
 * serves may say so with `core: true`: its plugin id then names it, `group:plugins` does not.
 */
export type ToolMetaResolver<T> = (tool: T) => { pluginId?: unknown; core?: boolean } | undefined | null;

export interface PluginToolGroups {
  /** Normalized names of every plugin tool. */
  all: string[];
  /** Normalized names by lower-cased, trimmed plugin id. */
  byPlugin: Map<string, string[]>;
}

// `update_plan` became `progress_card`; `canvas` grants the widget tool split out of it.
const SHIPPED_RENAMES: ReadonlyMap<string, string> = new Map([['update_plan', 'progress_card']]);
const SHIPPED_FAMILY_MEMBERS: ReadonlyMap<string, readonly string[]> = new Map([['canvas', ['show_widget']]]);

function expandShippedNames(entries: readonly unknown[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < entries.length; i++) {
    const normalized = normalizeToolPolicyName(entries[i]);
    out.push(SHIPPED_RENAMES.get(normalized) ?? normalized);
    const family = SHIPPED_FAMILY_MEMBERS.get(normalized);
    if (family) out.push(...family);
  }
  return uniqueStrings(out);
}

/** Apply the shipped renames to a list, keeping (and renaming inside) an intersection. */
export function expandShippedCoreToolPolicyNames(list: readonly unknown[] | undefined | null): string[] | undefined {
  if (!list) return undefined;
  const expanded = expandShippedNames(list);
  const restrictions = readToolAllowlistIntersection(list);
  return restrictions ? attachToolAllowlistIntersection(expanded, restrictions.map(expandShippedNames)) : expanded;
}

/** Group the plugin tools of a concrete list by plugin id. Core tools without a plugin are skipped. */
export function buildPluginToolGroups<T extends { name?: unknown }>(tools: readonly T[], toolMeta: ToolMetaResolver<T>): PluginToolGroups {
  const all: string[] = [];
  const byPlugin = new Map<string, string[]>();
  tools.forEach((tool, index) => {
    let meta: ReturnType<ToolMetaResolver<T>>;
    try {
      meta = toolMeta(tool);
    } catch (cause) {
      throw new PolicyInputError('TOOL_META_FAILED', `tools[${index}]`, 'toolMeta(tool) threw', { cause });
    }
    if (!meta) return;
    const name = normalizeToolPolicyName(tool?.name);
    if (meta.core !== true) all.push(name);
    const pluginId = foldToolName(meta.pluginId);
    if (!pluginId) return;
    const names = byPlugin.get(pluginId);
    if (names) names.push(name);
    else byPlugin.set(pluginId, [name]);
  });
  return { all, byPlugin };
}

/** Expand `group:plugins` and plugin ids in a list; other entries are normalized. */
export function expandPluginGroups(list: readonly unknown[] | undefined | null, groups: PluginToolGroups): string[] | undefined {
  const renamed = expandShippedCoreToolPolicyNames(list);
  if (!renamed || renamed.length === 0) return renamed;
  const out: string[] = [];
  for (const entry of renamed) {
    if (entry === PLUGINS_GROUP) {
      // With no plugin tools the entry stays literal, so it matches nothing rather than everything.
      if (groups.all.length > 0) out.push(...groups.all);
      else out.push(entry);
      continue;
    }
    const pluginTools = groups.byPlugin.get(entry);
    if (pluginTools && pluginTools.length > 0) out.push(...pluginTools);
    else out.push(entry);
  }
  return uniqueStrings(out);
}

/** Expand plugin groups in both lists of a policy, keeping an allow intersection. */
export function expandPolicyWithPluginGroups(
  policy: { allow?: readonly unknown[] | null; deny?: readonly unknown[] | null } | undefined,
  groups: PluginToolGroups,
): { allow?: string[]; deny?: string[] } | undefined {
  if (!policy) return undefined;
  const allow = expandPluginGroups(policy.allow, groups);
  const restrictions = policy.allow ? readToolAllowlistIntersection(policy.allow) : undefined;
  return {
    allow: allow && restrictions ? attachToolAllowlistIntersection(allow, restrictions.map((r) => expandPluginGroups(r, groups) ?? [])) : allow,
    deny: expandPluginGroups(policy.deny, groups),
  };
}
