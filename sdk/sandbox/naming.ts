import { createHash } from 'node:crypto';
import { MAX_CONTAINER_NAME_LENGTH } from './constants.js';
import { shQuote } from './shell/quote.js';

export type SandboxScope = 'session' | 'agent' | 'shared';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** 96 bits: no one can choose a session key whose name lands on another sandbox's name. */
const IDENTITY_HASH_CHARS = 24;

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
 * keys that slug alike (`a:b` vs `a-b`) never share a directory.
 */
export function slugifyScopeKey(scopeKey: string): string {
  const trimmed = scopeKey.trim() || 'session';
  return `${readableSlug(trimmed, 32)}-${sha(trimmed).slice(0, 8)}`;
}

function readableSlug(text: string, max: number): string {
  return text.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, max).replace(/-+$/, '');
}

/** Everything that decides which sandbox a session gets. Directories are canonical host paths. */
export interface SandboxIdentity {
  prefix: string;
  deploymentId: string;
  scope: SandboxScope;
  scopeKey: string;
  agentId: string;
  workspaceDir: string;
  agentWorkspaceDir: string;
  workspaceAccess: string;
}

/**
 * `<prefix><deployment>-<readable slug>-<96-bit hash>`, at most 63 characters. The hash covers
 * the deployment, scope, scope key, workspace and agent workspace, and the agent (for `session`
 * and `agent` scopes), so neither two projects nor two agents with the same session key can
 * land on one container. A `shared` sandbox serves every agent, so instead of the agent it
 * covers the workspace access: agents share it only when they would see the same mounts.
 * The readable part is cut first; the hash is never shortened.
 */
export function buildSandboxContainerName(id: SandboxIdentity): string {
  const perAgent = id.scope !== 'shared';
  const hashed = JSON.stringify([
    'pincer-sandbox-name/2', id.deploymentId, id.scope, id.scopeKey, perAgent ? id.agentId : '', id.workspaceDir, id.agentWorkspaceDir, perAgent ? '' : id.workspaceAccess,
  ]);
  const head = `${id.prefix}${id.deploymentId}-`;
  const tail = sha(hashed).slice(0, IDENTITY_HASH_CHARS);
  const room = MAX_CONTAINER_NAME_LENGTH - head.length - tail.length - 1;
  const slug = room > 0 ? readableSlug(id.scope === 'shared' ? 'shared' : id.scopeKey, room) : '';
  return slug ? `${head}${slug}-${tail}` : `${head}${tail}`;
}

// Session keys come from whoever drives the run: quoted, so a copied hint runs nothing else.
const shellWord = (text: string) => (/^[\w:.@/+=-]+$/.test(text) ? text : shQuote(text.replace(/\0/g, '')));

/** The operator command that recreates this scope's sandbox. */
export function formatRecreateHint(scope: SandboxScope, scopeKey: string, agentId: string): string {
  if (scope === 'session') return `pincer sandbox recreate --session ${shellWord(scopeKey)}`;
  if (scope === 'agent') return `pincer sandbox recreate --agent ${shellWord(agentId.trim() || 'main')}`;
  return 'pincer sandbox recreate --all';
}
