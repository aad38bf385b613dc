/**
 * Tool-name globs: only `*` is special and matches any run of characters; a lone `*`
 * matches everything. Compiled patterns are cached by their normalized text because
 * the same few entries are compiled for every run.
 */

/** A compiled list: exact names in a set, wildcard entries as anchored regexes. */
export interface CompiledGlobs {
  readonly matchesAll: boolean;
  readonly exact: ReadonlySet<string>;
  readonly regexes: readonly RegExp[];
  /** Number of non-empty entries compiled. Zero means "no pattern". */
  readonly size: number;
}

const REGEX_CACHE_LIMIT = 1024;
const regexCache = new Map<string, RegExp>();

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Anchored regex for a pattern holding `*`; each escaped `\*` becomes `.*`. */
function globRegex(pattern: string): RegExp {
  let regex = regexCache.get(pattern);
  if (!regex) {
    regex = new RegExp(`^${escapeRegExp(pattern).replaceAll('\\*', '.*')}$`);
    // Bounded: evict the oldest entry rather than grow with hostile configs.
    if (regexCache.size >= REGEX_CACHE_LIMIT) regexCache.delete(regexCache.keys().next().value as string);
    regexCache.set(pattern, regex);
  }
  return regex;
}

/** Compile already-normalized entries; empty entries are dropped. */
export function compileGlobs(entries: readonly string[]): CompiledGlobs {
  let matchesAll = false;
  const exact = new Set<string>();
  const regexes: RegExp[] = [];
  let size = 0;
  for (const entry of entries) {
    if (!entry) continue;
    size++;
    if (entry === '*') matchesAll = true;
    else if (!entry.includes('*')) exact.add(entry);
    else regexes.push(globRegex(entry));
  }
  return { matchesAll, exact, regexes, size };
}

export function matchesGlobs(value: string, globs: CompiledGlobs): boolean {
  if (globs.matchesAll || globs.exact.has(value)) return true;
  for (const regex of globs.regexes) if (regex.test(value)) return true;
  return false;
}
