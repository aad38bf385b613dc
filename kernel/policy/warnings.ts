/**
 * The texts of a run's policy warnings: one per config key (a list several layers use is
 * named once, with every layer), and a memory so a kernel logs each distinct text once.
 */
import { isKnownCoreToolId } from '../../protocol/vocabulary/index.js';
import type { ListFinding } from './entry-lint.js';
import { sanitizeAuditField } from './sanitize.js';
import { suggestEntry, type PolicyVocabulary } from './vocabulary.js';

function allowReason(entries: readonly string[]): string {
  const core = entries.some((entry) => isKnownCoreToolId(entry));
  const other = entries.some((entry) => !isKnownCoreToolId(entry));
  if (core && other) return 'Some are core tools that are not available in this runtime; the others match no tool unless a plugin that provides them is enabled for this agent.';
  if (core) return 'They are core tools that are not available in this runtime (no enabled plugin provides them).';
  return 'No enabled plugin provides them: enable the plugin for this agent or remove the entries.';
}

function denySuggestions(entries: readonly string[], vocabulary: PolicyVocabulary): string {
  const pairs = entries.flatMap((entry) => {
    const suggestion = suggestEntry(entry, vocabulary);
    return suggestion ? [`${sanitizeAuditField(entry)} → ${sanitizeAuditField(suggestion)}`] : [];
  });
  return pairs.length > 0 ? ` Did you mean: ${pairs.join(', ')}?` : '';
}

/** One warning per (config key, kind), naming the key, its layers and the entries. */
export function formatListWarnings(findings: readonly ListFinding[], vocabulary: PolicyVocabulary): string[] {
  const byKey = new Map<string, { finding: ListFinding; layers: Set<string>; entries: Set<string> }>();
  for (const finding of findings) {
    const id = `${finding.kind}\u0000${finding.key}`;
    let merged = byKey.get(id);
    if (!merged) byKey.set(id, (merged = { finding, layers: new Set(), entries: new Set() }));
    merged.layers.add(finding.layer);
    for (const entry of finding.entries) merged.entries.add(entry);
  }
  return [...byKey.values()].map(({ finding, layers, entries }) => {
    const list = [...entries];
    const where = `${sanitizeAuditField(finding.key)} (${layers.size > 1 ? 'layers' : 'layer'} ${[...layers].join(', ')})`;
    const named = list.map(sanitizeAuditField).join(', ');
    return finding.kind === 'allow'
      ? `tools: ${where} names tools that match nothing here (${named}). ${allowReason(list)}`
      : `tools: ${where} names entries that match no known tool, group or plugin (${named}), so they deny nothing.${denySuggestions(list, vocabulary)}`;
  });
}

/** Remembers emitted warnings so each distinct text is logged once (bounded, oldest evicted). */
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
