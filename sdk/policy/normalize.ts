/**
 * Tool-name normalization shared by every allow/deny path: trim, lower-case, then the
 * fixed alias table (`bash`→`exec`, `apply-patch`→`apply_patch`, `cron`→`automations`).
 */
import { TOOL_NAME_ALIASES } from '../../protocol/vocabulary/index.js';
import { assertOptionalList } from './errors.js';

/** Trim and lower-case a string; anything that is not a string becomes `''`. */
export function foldToolName(value: unknown): string {
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

// Tool names repeat across every run; remembering their normalized form is cheaper than
// trimming and lower-casing again. Bounded, with the oldest entry evicted first.
const NORMALIZED_CACHE_LIMIT = 65_536;
const normalizedCache = new Map<string, string>();

/**
 * Whether trimming and lower-casing leave `name` as it is: printable ASCII, no space, no
 * upper-case letter. Most names are already so, and a scan of their few characters is cheaper
 * than a look-up in a cache that holds a whole large surface's names (a miss of the CPU caches
 * per name at 20,000 tools); it also keeps such names out of that cache.
 */
function isFolded(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || (c >= 0x41 && c <= 0x5a)) return false;
  }
  return true;
}

/** The policy id a name or alias matches under. Non-strings normalize to `''`. */
export function normalizeToolPolicyName(name: unknown): string {
  if (typeof name !== 'string') return '';
  if (isFolded(name)) return TOOL_NAME_ALIASES.get(name) ?? name;
  let normalized = normalizedCache.get(name);
  if (normalized === undefined) {
    const folded = name.trim().toLowerCase();
    normalized = TOOL_NAME_ALIASES.get(folded) ?? folded;
    if (normalizedCache.size >= NORMALIZED_CACHE_LIMIT) normalizedCache.delete(normalizedCache.keys().next().value as string);
    normalizedCache.set(name, normalized);
  }
  return normalized;
}

/** Normalize every entry of a list and drop the ones that end up empty. `undefined` → `[]`. */
export function normalizeToolList(list?: readonly unknown[] | null, where = 'list'): string[] {
  if (!list) return [];
  assertOptionalList(list, where);
  const out: string[] = [];
  // A plain index loop also reads holes of sparse arrays (as empty names, then dropped).
  for (let i = 0; i < list.length; i++) {
    const normalized = normalizeToolPolicyName(list[i]);
    if (normalized) out.push(normalized);
  }
  return out;
}

/** First-seen order, duplicates removed. */
export function uniqueStrings(values: Iterable<string>): string[] {
  return [...new Set(values)];
}
