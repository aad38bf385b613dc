/**
 * Whether a session is sandboxed: `off` never, `all` always, `non-main` for every session
 * but the agent's main one (so every group or channel session is sandboxed).
 */
import type { SandboxMode } from '../config/schema.js';
import { canonicalizeSessionKey, resolveMainSessionKey, type SessionKeyContext } from './session-key.js';

/** Decide for one session. A missing session key is treated as the main session. */
export function isSessionSandboxed(mode: SandboxMode | undefined, sessionKey: string | undefined, ctx: SessionKeyContext): boolean {
  if (mode === 'all') return true;
  if (mode !== 'non-main') return false;
  if (sessionKey === undefined || sessionKey.trim() === '') return false;
  return canonicalizeSessionKey(sessionKey, ctx) !== resolveMainSessionKey(ctx);
}
