/**
 * Every name a policy entry can mean: core tool ids (with the shipped aliases and legacy
 * names), channel ids, core groups, `group:plugins`, plugin ids and the tools plugins
 * contribute. An entry outside it matches nothing, which in a deny list fences nothing.
 */
import {
  BUNDLE_MCP_PLUGIN_ID,
  CORE_TOOL_DEFINITIONS,
  CORE_TOOL_GROUPS,
  PLUGINS_GROUP,
  SANDBOX_DEFAULT_TOOL_DENY,
} from '../../protocol/vocabulary/index.js';
import { compileGlobs, matchesGlobs, normalizeToolPolicyName } from '../../sdk/policy/index.js';

/** What a kernel knows beyond the fixed vocabulary: its plugins and their tools (normalized). */
export interface PolicyVocabulary {
  readonly plugins: ReadonlySet<string>;
  readonly tools: ReadonlySet<string>;
}

// Names earlier catalogs used; reference configs still carry them and the SDK still expands them.
const LEGACY_NAMES = ['image', 'update_plan', 'whatsapp_login', 'tool_call', 'dispatch_action'];

/** The fixed part: core ids, legacy names, channel ids (the sandbox's default deny), groups. */
const FIXED: ReadonlySet<string> = new Set(
  [
    ...CORE_TOOL_DEFINITIONS.map((tool) => tool.id),
    ...LEGACY_NAMES,
    ...SANDBOX_DEFAULT_TOOL_DENY,
    ...CORE_TOOL_GROUPS.keys(),
    PLUGINS_GROUP,
    BUNDLE_MCP_PLUGIN_ID,
  ].map(normalizeToolPolicyName),
);

export const EMPTY_VOCABULARY: PolicyVocabulary = Object.freeze({ plugins: new Set<string>(), tools: new Set<string>() });

/** Whether an entry (a name, a group, a plugin id or a `*` glob) can match anything known. */
export function isKnownEntry(entry: string, vocabulary: PolicyVocabulary): boolean {
  const name = normalizeToolPolicyName(entry);
  if (!name || name === '*') return true;
  const sets = [FIXED, vocabulary.plugins, vocabulary.tools];
  if (!name.includes('*')) return sets.some((set) => set.has(name));
  const glob = compileGlobs([name]);
  // Iterated, not spread: a plugin surface's set holds every tool name, and a match is usually early.
  for (const set of sets) for (const known of set) if (matchesGlobs(known, glob)) return true;
  return false;
}

/** Edit distance counting a swap of neighbours as one edit (`exce` → `exec`), stopping once it exceeds `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) current[j] = Math.min(current[j], before[j - 2] + 1);
    }
    if (Math.min(...current) > max) return max + 1;
    [before, previous] = [previous, current];
  }
  return previous[b.length];
}

/** The closest known name to a misspelt entry (at most two edits, fewer for short names), if any. */
export function suggestEntry(entry: string, vocabulary: PolicyVocabulary): string | undefined {
  const name = normalizeToolPolicyName(entry);
  const max = name.length <= 4 ? 1 : 2;
  let best: { name: string; d: number } | undefined;
  for (const set of [FIXED, vocabulary.plugins, vocabulary.tools]) {
    for (const known of set) {
      const d = distance(name, known, max);
      if (d <= max && (!best || d < best.d)) best = { name: known, d };
    }
  }
  return best?.name;
}
