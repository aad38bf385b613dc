/**
 * Warnings for allowlist entries that match no tool in this run: a shipped core tool that is
 * unavailable here, or a name no enabled plugin provides. One warning per distinct text.
 */
import { isKnownCoreToolId, PLUGINS_GROUP } from '../../protocol/vocabulary/index.js';
import { expandShippedCoreToolPolicyNames, expandToolGroups, normalizeToolList, normalizeToolPolicyName, type PluginToolGroups } from '../../sdk/policy/index.js';
import { sanitizeAuditField } from './sanitize.js';
import type { PolicyStep } from './types.js';

/** Entries of an allow list that name neither a present core tool nor a plugin entry. */
export function findUnknownAllowEntries(allow: readonly string[] | undefined, groups: PluginToolGroups, coreTools: ReadonlySet<string>): string[] {
  if (!allow || allow.length === 0) return [];
  const pluginTools = new Set(groups.all);
  const unknown = new Set<string>();
  for (const entry of normalizeToolList(expandShippedCoreToolPolicyNames(allow))) {
    if (entry === '*') continue;
    if (entry === PLUGINS_GROUP || groups.byPlugin.has(entry) || pluginTools.has(entry)) continue;
    if (expandToolGroups([entry]).some((tool) => coreTools.has(tool))) continue;
    unknown.add(entry);
  }
  return [...unknown];
}

/** The warning text for one step, or `undefined` when nothing is worth saying. */
export function describeUnknownEntries(step: PolicyStep, unknown: readonly string[]): string | undefined {
  const suppressed = new Set((step.suppressUnavailableWarningFor ?? []).map(normalizeToolPolicyName));
  const gatedCore = unknown.filter((entry) => isKnownCoreToolId(entry) && !suppressed.has(entry));
  const other = unknown.filter((entry) => !isKnownCoreToolId(entry) && !suppressed.has(entry));
  if (gatedCore.length === 0 && other.length === 0) return undefined;
  const entries = [...gatedCore, ...other].map(sanitizeAuditField).join(', ');
  const why =
    gatedCore.length > 0 && other.length > 0
      ? 'Some are core tools that are not available in this runtime; the others match no tool unless a plugin that provides them is enabled for this agent.'
      : gatedCore.length > 0
        ? 'They are core tools that are not available in this runtime (no enabled plugin provides them).'
        : 'No enabled plugin provides them: enable the plugin for this agent or remove the entries.';
  return `tools: ${sanitizeAuditField(step.label)} allowlist names tools that match nothing here (${entries}). ${why}`;
}

/** Remembers emitted warnings so each distinct text is said once (bounded, oldest evicted). */
export class WarningOnce {
  readonly #seen = new Set<string>();
  constructor(private readonly limit = 256) {}

  /** True the first time a text is seen. */
  first(text: string): boolean {
    if (this.#seen.has(text)) return false;
    if (this.#seen.size >= this.limit) this.#seen.delete(this.#seen.values().next().value as string);
    this.#seen.add(text);
    return true;
  }
}
