/**
 * Compiled allow/deny lists, cached by content. The same config lists are compiled for
 * every run, so the group expansion and glob compilation are paid once per distinct list.
 * Keyed by content, not identity, so a caller mutating its array never reads a stale entry.
 */
import { compileGlobs, type CompiledGlobs } from './glob.js';
import { expandToolGroups } from './groups.js';

const CACHE_LIMIT = 512;
const cache = new Map<string, CompiledGlobs>();
const EMPTY = compileGlobs([]);

/**
 * A cache key that no two different lists share: each string entry as a JSON string literal (so
 * no character inside an entry can pass for a separator: `["exec\u0001web_*"]` once shared its key
 * with `["exec", "web_*"]`, and whichever was compiled first answered for both), each non-string
 * entry (all of which normalize to nothing) as `#`.
 */
function contentKey(list: readonly unknown[]): string {
  let key = '';
  for (let i = 0; i < list.length; i++) {
    const entry = list[i];
    key += typeof entry === 'string' ? `${JSON.stringify(entry)},` : '#,';
  }
  return key;
}

// A frozen list cannot change, so its identity is as good a key as its content, and cheaper.
const frozenCache = new WeakMap<readonly unknown[], CompiledGlobs>();

/** Group-expanded, compiled globs for a raw list (`undefined`/`null` compile to nothing). */
export function compileToolList(list: readonly unknown[] | undefined | null): CompiledGlobs {
  if (!list || list.length === 0) return EMPTY;
  const frozen = Object.isFrozen(list);
  if (frozen) {
    const hit = frozenCache.get(list);
    if (hit) return hit;
  }
  const compiled = compileByContent(list);
  if (frozen) frozenCache.set(list, compiled);
  return compiled;
}

function compileByContent(list: readonly unknown[]): CompiledGlobs {
  const key = contentKey(list);
  let compiled = cache.get(key);
  if (!compiled) {
    compiled = compileGlobs(expandToolGroups(list));
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(key, compiled);
  }
  return compiled;
}
