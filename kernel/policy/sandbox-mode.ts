/**
 * Whether a session is sandboxed: `off` never, `all` always, `non-main` for every session
 * but the agent's main one (so every group or channel session is sandboxed).
 */
import type { SandboxMode } from '../config/schema.js';

export interface SessionKeyContext {
  agentId: string;
  /** Configured `session.mainKey` (default `main`). */
  mainKey?: string;
  /** `global` scope shares one main session named `global`. */
  scope?: 'per-sender' | 'global';
}

/** The canonical key of the agent's main session. */
export function resolveMainSessionKey(ctx: SessionKeyContext): string {
  if (ctx.scope === 'global') return 'global';
  return `agent:${ctx.agentId.trim().toLowerCase()}:${(ctx.mainKey ?? 'main').trim().toLowerCase()}`;
}

/** Map the aliases of the main session (`main`, the bare main key, `agent:<id>:main`) to its canonical key. */
export function canonicalizeSessionKey(sessionKey: string, ctx: SessionKeyContext): string {
  const key = sessionKey.trim().toLowerCase();
  const main = resolveMainSessionKey(ctx);
  const mainKey = (ctx.mainKey ?? 'main').trim().toLowerCase();
  const agent = ctx.agentId.trim().toLowerCase();
  const aliases = new Set(['main', mainKey, `agent:${agent}:main`, `agent:${agent}:${mainKey}`]);
  if (ctx.scope === 'global') aliases.add('global');
  return aliases.has(key) ? main : key;
}

/** Decide for one session. A missing session key is treated as the main session. */
export function isSessionSandboxed(mode: SandboxMode | undefined, sessionKey: string | undefined, ctx: SessionKeyContext): boolean {
  if (mode === 'all') return true;
  if (mode !== 'non-main') return false;
  if (sessionKey === undefined || sessionKey.trim() === '') return false;
  return canonicalizeSessionKey(sessionKey, ctx) !== resolveMainSessionKey(ctx);
}
