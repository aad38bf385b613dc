/**
 * Ranked search over tool definitions: keywords (each matched against the name's parts, the
 * whole name and the description's words, best first) or a regular expression (over name and
 * description). The index is built once per set of definitions; a search is one pass over it.
 */

export interface Searchable {
  name: string;
  description: string;
}

interface Entry<T> {
  tool: T;
  name: string;
  nameParts: Set<string>;
  description: string;
  words: Set<string>;
}

/** How much of a description a regex looks at (descriptions run to kilobytes; enough is enough). */
const REGEX_TEXT_CHARS = 2_000;
export const MAX_PATTERN_CHARS = 200;

const words = (text: string): string[] => text.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
/** `github__create_issue`, `createIssue`, `get-file` → their parts. */
const nameParts = (name: string): string[] => words(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2'));

export class ToolIndex<T extends Searchable> {
  readonly #entries: Entry<T>[];

  constructor(tools: readonly T[]) {
    this.#entries = tools.map((tool) => ({
      tool,
      name: tool.name.toLowerCase(),
      nameParts: new Set(nameParts(tool.name)),
      description: tool.description.toLowerCase(),
      words: new Set(words(tool.description)),
    }));
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Best first; ties by name. Only tools matching at least one keyword. */
  keywords(query: string, limit: number): T[] {
    const terms = [...new Set(words(query))];
    const phrase = query.trim().toLowerCase();
    const scored: { entry: Entry<T>; score: number }[] = [];
    for (const entry of this.#entries) {
      let score = entry.name === phrase ? 50 : entry.name.includes(phrase) && phrase.length > 2 ? 15 : 0;
      for (const term of terms) {
        if (entry.nameParts.has(term)) score += 10;
        else if (entry.name.includes(term)) score += 6;
        if (entry.words.has(term)) score += 3;
        else if (term.length > 3 && entry.description.includes(term)) score += 1;
      }
      if (score > 0) scored.push({ entry, score });
    }
    return top(scored, limit);
  }

  /** Name matches rank above description matches. */
  pattern(regex: RegExp, limit: number): T[] {
    const scored: { entry: Entry<T>; score: number }[] = [];
    for (const entry of this.#entries) {
      const score = (regex.test(entry.tool.name) ? 10 : 0) + (regex.test(entry.tool.description.slice(0, REGEX_TEXT_CHARS)) ? 3 : 0);
      if (score > 0) scored.push({ entry, score });
    }
    return top(scored, limit);
  }
}

function top<T extends Searchable>(scored: { entry: Entry<T>; score: number }[], limit: number): T[] {
  scored.sort((a, b) => b.score - a.score || (a.entry.tool.name < b.entry.tool.name ? -1 : 1));
  return scored.slice(0, limit).map((s) => s.entry.tool);
}

/**
 * A model-written pattern compiled case-insensitively, or why it is refused: too long, a
 * back-reference, or a quantified group that itself holds a quantifier (`(a+)+`), the shapes that
 * backtrack exponentially, since a regex cannot be interrupted once it runs.
 */
export function compilePattern(pattern: string): RegExp | string {
  if (pattern.length > MAX_PATTERN_CHARS) return `the pattern is longer than ${MAX_PATTERN_CHARS} characters`;
  if (/\\[1-9]|\\k</.test(pattern)) return 'back-references are not supported';
  if (/\((?:[^()\\]|\\.)*[*+}](?:[^()\\]|\\.)*\)\s*[*+{?]/.test(pattern)) return 'a repeated group that itself repeats (like (a+)+) is refused: it can take forever to match';
  try {
    return new RegExp(pattern, 'i');
  } catch (error) {
    return `not a valid regular expression: ${(error as Error).message}`;
  }
}
