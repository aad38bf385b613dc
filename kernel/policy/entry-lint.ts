/**
 * Entries that do nothing: an allow entry that matches no tool this run has (a core tool
 * this runtime lacks, or a plugin that is not enabled), and a deny entry that matches no
 * known tool, group or plugin (a typo that leaves the operator believing something is fenced).
 */
import { PLUGINS_GROUP } from '../../protocol/vocabulary/index.js';
import {
  compileGlobs,
  expandShippedCoreToolPolicyNames,
  expandToolGroups,
  matchesGlobs,
  normalizeToolList,
  type PluginToolGroups,
} from '../../sdk/policy/index.js';
import { isKnownEntry, type PolicyVocabulary } from './vocabulary.js';
import type { PolicyLayerId, PolicyStep } from './types.js';

/** The tools of one run as the lint sees them: every readable name, normalized, and the plugin groups. */
export interface LintSurface {
  names: ReadonlySet<string>;
  groups: PluginToolGroups;
}

/** Entries of one config list that do nothing in one layer. */
export interface ListFinding {
  key: string;
  kind: 'allow' | 'deny';
  layer: PolicyLayerId;
  entries: string[];
}

/** Allow entries (normalized) that admit no tool of this run. */
export function unmatchedAllowEntries(entries: readonly string[], surface: LintSurface): string[] {
  const unmatched = new Set<string>();
  for (const entry of normalizeToolList(expandShippedCoreToolPolicyNames(entries))) {
    if (entry === '*' || entry === PLUGINS_GROUP || surface.groups.byPlugin.has(entry)) continue;
    if (entry.includes('*')) {
      const glob = compileGlobs([entry]);
      if ([...surface.names].some((name) => matchesGlobs(name, glob))) continue;
    } else if (expandToolGroups([entry]).some((name) => surface.names.has(name))) continue;
    unmatched.add(entry);
  }
  return [...unmatched];
}

/** Deny entries (as written, trimmed) that match nothing known, so deny nothing anywhere. */
export function unknownDenyEntries(entries: readonly string[], vocabulary: PolicyVocabulary): string[] {
  return [...new Set(entries.map((entry) => entry.trim()).filter((entry) => !isKnownEntry(entry, vocabulary)))];
}

/** The findings of one step: its allow lists against the run's tools, its deny lists against the vocabulary. */
export function lintStep(step: PolicyStep, surface: LintSurface, vocabulary: PolicyVocabulary): ListFinding[] {
  const findings: ListFinding[] = [];
  for (const list of step.lists ?? []) {
    const entries = list.kind === 'allow' ? unmatchedAllowEntries(list.entries, surface) : unknownDenyEntries(list.entries, vocabulary);
    if (entries.length > 0) findings.push({ key: list.key, kind: list.kind, layer: step.layer, entries });
  }
  return findings;
}
