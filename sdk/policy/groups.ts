/** Expansion of core group names (`group:fs`, `group:core`, ...) into tool ids. */
import { CORE_TOOL_GROUPS } from '../../protocol/vocabulary/index.js';
import { normalizeToolList } from './normalize.js';

/**
 * Normalize a list, replace each core group by its members (in catalog order), and
 * return the unique ids in first-seen order. Unknown names pass through unchanged.
 */
export function expandToolGroups(list?: readonly unknown[] | null): string[] {
  const seen = new Set<string>();
  for (const entry of normalizeToolList(list)) {
    const members = CORE_TOOL_GROUPS.get(entry);
    if (members) for (const member of members) seen.add(member);
    else seen.add(entry);
  }
  return [...seen];
}
