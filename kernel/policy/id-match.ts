/**
 * The one rule by which a run's ids meet config keys: agents, groups, providers and
 * senders compare trimmed and case-insensitively (`--group TEAM` selects `groups.team`).
 * Config validation refuses two keys of one map that this rule cannot tell apart.
 */

/** Trimmed and lower-cased (locale-independent); anything but a string folds to `''`. */
export function foldId(value: unknown): string {
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/** The entry of `map` whose key folds to the same id, with the key as written in config. */
export function findById<V>(map: Readonly<Record<string, V>> | undefined, id: string | undefined): { key: string; value: V } | undefined {
  const wanted = foldId(id);
  if (!map || !wanted) return undefined;
  for (const [key, value] of Object.entries(map)) if (foldId(key) === wanted) return { key, value };
  return undefined;
}

/** Pairs of keys that fold to the same id: `[first, later]`, in config order. */
export function collidingIds(keys: Iterable<string>): [string, string][] {
  const seen = new Map<string, string>();
  const pairs: [string, string][] = [];
  for (const key of keys) {
    const folded = foldId(key);
    const first = seen.get(folded);
    if (first !== undefined) pairs.push([first, key]);
    else seen.set(folded, key);
  }
  return pairs;
}
