/**
 * A `toolsBySender` key as a run's sender that it matches: `id:42`, `e164:+1555…`,
 * `username:bob`, `name:Bob`, a bare id (matched as the sender's id, `@` and all), or `*` (any
 * sender: an id no rule names).
 */
import type { RunContext } from '../kernel.js';

const KINDS = ['id', 'e164', 'username', 'name'] as const;

export function senderForKey(key: string): NonNullable<RunContext['sender']> {
  if (key === '*') return { id: '(any sender)' };
  const at = key.indexOf(':');
  const kind = KINDS.find((k) => k === key.slice(0, at));
  return kind ? { [kind]: key.slice(at + 1) } : { id: key };
}
