/**
 * Session keys, in the reference's shape: an agent's main session is `agent:<agent>:<mainKey>`
 * (or `global` under `session.scope: "global"`); a group's session is `agent:<agent>:group:<group>`.
 * A run that names a group without a session key is that group's session, never the main
 * one, so `non-main` sandboxes every group run as promised.
 */
import { foldId } from './id-match.js';

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
  return `agent:${foldId(ctx.agentId)}:${foldId(ctx.mainKey ?? 'main')}`;
}

/** A group's (or channel's, or space's) session of one agent; ids folded by the id-matching rule. */
export function groupSessionKey(agentId: string, groupId: string): string {
  return `agent:${foldId(agentId)}:group:${foldId(groupId)}`;
}

/** The session a run belongs to: its explicit key, else its group's, else the agent's main session. */
export function resolveRunSessionKey(run: { sessionKey?: string; groupId?: string }, ctx: SessionKeyContext): string {
  const explicit = run.sessionKey?.trim();
  if (explicit) return explicit;
  return foldId(run.groupId) ? groupSessionKey(ctx.agentId, run.groupId as string) : resolveMainSessionKey(ctx);
}

/** Map the aliases of the main session (`main`, the bare main key, `agent:<id>:main`) to its canonical key. */
export function canonicalizeSessionKey(sessionKey: string, ctx: SessionKeyContext): string {
  const key = sessionKey.trim().toLowerCase();
  const main = resolveMainSessionKey(ctx);
  const mainKey = foldId(ctx.mainKey ?? 'main');
  const agent = foldId(ctx.agentId);
  const aliases = new Set(['main', mainKey, `agent:${agent}:main`, `agent:${agent}:${mainKey}`]);
  if (ctx.scope === 'global') aliases.add('global');
  return aliases.has(key) ? main : key;
}
