/**
 * Derived core vocabulary: groups and profiles computed from the definition list, frozen.
 * Data only (no I/O): the kernel, the SDK's policy primitives and plugins all read it, and
 * nothing can add a core group or message action at runtime.
 */
import {
  CORE_TOOL_DEFINITIONS,
  CORE_TOOL_SECTIONS,
  PROFILE_EXTRA_ALLOW,
  type CoreToolDefinition,
  type ToolProfileId,
} from './reference-data.js';
import { FrozenMap } from './frozen-map.js';

/** Our name for "every core agent tool". */
export const CORE_GROUP = 'group:core';
/** The reference's name for the same group, accepted so reference configs keep working. */
export const CORE_GROUP_REFERENCE_ALIAS = 'group:openclaw';
/** Expands to every tool contributed by a plugin. */
export const PLUGINS_GROUP = 'group:plugins';
/** Plugin id under which MCP bundle tools are contributed. */
export const BUNDLE_MCP_PLUGIN_ID = 'bundle-mcp';

export const TOOL_PROFILE_IDS: readonly ToolProfileId[] = Object.freeze(['minimal', 'coding', 'messaging', 'full']);

function freezeList(list: string[]): readonly string[] {
  return Object.freeze(list);
}

function buildCoreGroups(): ReadonlyMap<string, readonly string[]> {
  const core = freezeList(CORE_TOOL_DEFINITIONS.filter((tool) => tool.inCoreGroup).map((tool) => tool.id));
  const groups = new Map<string, readonly string[]>([
    [CORE_GROUP_REFERENCE_ALIAS, core],
    [CORE_GROUP, core],
  ]);
  const bySection = new Map<string, string[]>();
  for (const tool of CORE_TOOL_DEFINITIONS) {
    const members = bySection.get(tool.sectionId) ?? [];
    members.push(tool.id);
    bySection.set(tool.sectionId, members);
  }
  for (const [sectionId, members] of bySection) groups.set(`group:${sectionId}`, freezeList(members));
  return new FrozenMap(groups);
}

/** Core groups by name (`group:<section>`, `group:core` and its alias `group:openclaw`). */
export const CORE_TOOL_GROUPS: ReadonlyMap<string, readonly string[]> = buildCoreGroups();

function buildProfiles(): ReadonlyMap<ToolProfileId, { readonly allow: readonly string[] }> {
  const profiles = new Map<ToolProfileId, { readonly allow: readonly string[] }>();
  for (const profile of TOOL_PROFILE_IDS) {
    // `full` is "allow everything", as the reference release spells it.
    const allow =
      profile === 'full'
        ? ['*']
        : [...CORE_TOOL_DEFINITIONS.filter((tool) => tool.profiles.includes(profile)).map((tool) => tool.id), ...PROFILE_EXTRA_ALLOW[profile]];
    profiles.set(profile, Object.freeze({ allow: freezeList(allow) }));
  }
  return new FrozenMap(profiles);
}

/** Built-in profiles. Each is a fixed allow list. */
export const CORE_TOOL_PROFILES: ReadonlyMap<ToolProfileId, { readonly allow: readonly string[] }> = buildProfiles();

const CORE_TOOL_IDS: ReadonlySet<string> = new Set(CORE_TOOL_DEFINITIONS.map((tool) => tool.id));
const CORE_TOOLS_BY_ID: ReadonlyMap<string, CoreToolDefinition> = new Map(CORE_TOOL_DEFINITIONS.map((tool) => [tool.id, tool]));

export function isKnownCoreToolId(id: string): boolean {
  return CORE_TOOL_IDS.has(id);
}

export function getCoreToolDefinition(id: string): CoreToolDefinition | undefined {
  return CORE_TOOLS_BY_ID.get(id);
}

export function isToolProfileId(value: unknown): value is ToolProfileId {
  return typeof value === 'string' && (TOOL_PROFILE_IDS as readonly string[]).includes(value);
}

/**
 * A fresh copy of a profile's policy, or `undefined` for an unknown or empty profile id
 * (no restriction), as the reference resolves it.
 */
export function resolveCoreToolProfilePolicy(profile: string | undefined): { allow: string[] } | undefined {
  if (!profile || !isToolProfileId(profile)) return undefined;
  const resolved = CORE_TOOL_PROFILES.get(profile);
  return resolved ? { allow: [...resolved.allow] } : undefined;
}

/** Sections that hold at least one tool, in UI order, with their tool ids. */
export function listCoreToolSections(): { id: string; label: string; tools: string[] }[] {
  return CORE_TOOL_SECTIONS.map((section) => ({
    ...section,
    tools: CORE_TOOL_DEFINITIONS.filter((tool) => tool.sectionId === section.id).map((tool) => tool.id),
  })).filter((section) => section.tools.length > 0);
}
