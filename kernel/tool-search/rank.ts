/**
 * Ranked search over tool definitions: keywords (each matched against the name's parts, the
 * whole name and the description's words, best first) or a regular expression (over name and
 * description). The index is built once per set of definitions; a search is one pass over it.
 */

export interface Searchable {
  name: string;
  description: string;
}

/** How much of a description a regex looks at (descriptions run to kilobytes; enough is enough). */
const REGEX_TEXT_CHARS = 2_000;
export const MAX_PATTERN_CHARS = 200;

const words = (text: string): string[] => text.toLowerCase().split(/[^a-z0-9]+/);
/** `github__create_issue`, `createIssue`, `get-file` → their parts. */
const nameParts = (name: string): string[] => words(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2'));

/** word → the indexes of the tools it occurs in (each once, in order). */
function postings(texts: readonly string[][]): Map<string, number[]> {
  const index = new Map<string, number[]>();
  texts.forEach((list, i) => {
    for (const word of list) {
      if (!word) continue;
      const ids = index.get(word);
      if (!ids) index.set(word, [i]);
      else if (ids[ids.length - 1] !== i) ids.push(i);
    }
  });
  return index;
}

/**
 * An inverted index of names' parts and descriptions' words, so a keyword search touches only
 * the tools that contain its words (plus one substring pass over the names).
 */
export class ToolIndex<T extends Searchable> {
  readonly #tools: readonly T[];
  readonly #names: string[];
  readonly #nameWords: Map<string, number[]>;
  readonly #descriptionWords: Map<string, number[]>;

  constructor(tools: readonly T[]) {
    this.#tools = tools;
    this.#names = tools.map((tool) => tool.name.toLowerCase());
    this.#nameWords = postings(tools.map((tool) => nameParts(tool.name)));
    this.#descriptionWords = postings(tools.map((tool) => words(tool.description)));
  }

  get size(): number {
    return this.#tools.length;
  }

  /** Best first; ties by name. Only tools matching at least one keyword. */
  keywords(query: string, limit: number): T[] {
    const terms = [...new Set(words(query).filter(Boolean))];
    const phrase = query.trim().toLowerCase();
    const scores = new Map<number, number>();
    const add = (i: number, points: number) => scores.set(i, (scores.get(i) ?? 0) + points);
    for (const term of terms) {
      const inName = new Set(this.#nameWords.get(term));
      for (const i of inName) add(i, 10);
      for (const i of this.#descriptionWords.get(term) ?? []) add(i, 3);
      // Part of a longer name word ("issue" in "issues"): a weaker match.
      if (term.length > 2) this.#names.forEach((name, i) => !inName.has(i) && name.includes(term) && add(i, 6));
    }
    if (phrase.length > 2) this.#names.forEach((name, i) => name.includes(phrase) && add(i, name === phrase ? 50 : 15));
    return this.#top([...scores], limit);
  }

  /** Name matches rank above description matches. */
  pattern(regex: RegExp, limit: number): T[] {
    const scored: [number, number][] = [];
    this.#tools.forEach((tool, i) => {
      const score = (regex.test(tool.name) ? 10 : 0) + (regex.test(tool.description.slice(0, REGEX_TEXT_CHARS)) ? 3 : 0);
      if (score > 0) scored.push([i, score]);
    });
    return this.#top(scored, limit);
  }

  #top(scored: [number, number][], limit: number): T[] {
    scored.sort((a, b) => b[1] - a[1] || (this.#names[a[0]] < this.#names[b[0]] ? -1 : 1));
    return scored.slice(0, limit).map(([i]) => this.#tools[i]);
  }
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
