import { createHash } from 'node:crypto';
import { MAX_CONTAINER_NAME_LENGTH } from './constants.js';

export type SandboxScope = 'session' | 'agent' | 'shared';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Scope key a container is keyed by: the session key, `agent:<id>`, or `shared`.
 * Two sessions of one agent share a container under scope `agent`.
 */
export function resolveSandboxScopeKey(scope: SandboxScope, sessionKey: string, agentId: string): string {
  if (scope === 'shared') return 'shared';
  if (scope === 'agent') return `agent:${agentId.trim() || 'main'}`;
  return sessionKey.trim() || 'session';
}

/**
 * A docker-safe slug of a scope key. A short hash of the original key is appended so
 * keys that slug alike (`a:b` vs `a-b`) never share a container.
 */
export function slugifyScopeKey(scopeKey: string): string {
  const trimmed = scopeKey.trim() || 'session';
  const readable = trimmed.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 32) || 'session';
  return `${readable}-${sha(trimmed).slice(0, 8)}`;
}

/**
 * `<prefix><slug>`, at most 63 characters. When too long, the name is cut and a hash of
 * the full name appended, so distinct long keys stay distinct.
 */
export function buildSandboxContainerName(prefix: string, scope: SandboxScope, scopeKey: string): string {
  const slug = scope === 'shared' ? 'shared' : slugifyScopeKey(scopeKey);
  const full = `${prefix}${slug}`;
  if (full.length <= MAX_CONTAINER_NAME_LENGTH) return full;
  const suffix = `-${sha(full).slice(0, 12)}`;
  return `${full.slice(0, MAX_CONTAINER_NAME_LENGTH - suffix.length)}${suffix}`;
}

/** The operator command that recreates this scope's sandbox, shown when a stale container is kept. */
export function formatRecreateHint(scope: SandboxScope, scopeKey: string, agentId: string): string {
  if (scope === 'session') return `pincer sandbox recreate --session ${scopeKey}`;
  if (scope === 'agent') return `pincer sandbox recreate --agent ${agentId.trim() || 'main'}`;
  return 'pincer sandbox recreate --all';
}
