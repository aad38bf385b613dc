/**
 * Tool-name globs: only `*` is special and matches any run of characters; a lone `*`
 * matches everything. Compiled patterns are cached by their normalized text because
 * the same few entries are compiled for every run.
 */

/** A compiled list: exact names in a set, wildcard entries as anchored regexes. */
export interface CompiledGlobs {
  readonly matchesAll: boolean;
  readonly exact: ReadonlySet<string>;
  /** Every wildcard entry folded into one alternation, so a miss costs one regex test. */
  readonly wildcard: RegExp | undefined;
  /** Number of non-empty entries compiled. Zero means "no pattern". */
  readonly size: number;
}

const REGEX_CACHE_LIMIT = 1024;
const regexCache = new Map<string, RegExp>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Regex body for a pattern holding `*`: escaped text where each escaped `\*` becomes `.*`. */
function globBody(pattern: string): string {
  return escapeRegExp(pattern).replaceAll('\\*', '.*');
}

/** One anchored alternation of every wildcard pattern: matches iff any single pattern does. */
function wildcardRegex(patterns: readonly string[]): RegExp {
  // JSON, not a join: a pattern holding the separator would share another list's regex.
  const key = JSON.stringify(patterns);
  let regex = regexCache.get(key);
  if (!regex) {
    regex = new RegExp(`^(?:${patterns.map(globBody).join('|')})$`);
    // Bounded: evict the oldest entry rather than grow with hostile configs.
    if (regexCache.size >= REGEX_CACHE_LIMIT) regexCache.delete(regexCache.keys().next().value as string);
    regexCache.set(key, regex);
  }
  return regex;
}

/** Compile already-normalized entries; empty entries are dropped. */
export function compileGlobs(entries: readonly string[]): CompiledGlobs {
  let matchesAll = false;
  const exact = new Set<string>();
  const wildcards: string[] = [];
  let size = 0;
  for (const entry of entries) {
    if (!entry) continue;
    size++;
    if (entry === '*') matchesAll = true;
    else if (!entry.includes('*')) exact.add(entry);
    else wildcards.push(entry);
  }
  return { matchesAll, exact, wildcard: wildcards.length > 0 ? wildcardRegex(wildcards) : undefined, size };
}

export function matchesGlobs(value: string, globs: CompiledGlobs): boolean {
  return globs.matchesAll || globs.exact.has(value) || (globs.wildcard !== undefined && globs.wildcard.test(value));
}
