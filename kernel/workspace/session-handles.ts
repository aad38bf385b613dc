/**
 * A session, as the router and the plugins address it, is one (agent, session key,
 * placement): two agents sharing a key, or one key under two placements, are different
 * sessions. Each gets a handle, the name tool plugins and backends see for it; it reads
 * like its session key and is stable across kernels for the same agent, key and workspace.
 */
import { createHash } from 'node:crypto';
import type { SessionPlacement } from './router.js';

/** Everything that tells sessions apart. */
export interface SessionIdentity {
  agentId: string;
  sessionKey: string;
  placement: SessionPlacement;
}

/** JSON with object keys sorted, so equal placements compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : inner,
  );
}

const READABLE_LIMIT = 80;

export class SessionHandles {
  /** identity text → handle, and handle → identity text, so a handle names exactly one identity. */
  readonly #byIdentity = new Map<string, string>();
  readonly #identityOf = new Map<string, string>();
  readonly #texts = new WeakMap<SessionPlacement, string>();

  /** The last identity asked for, by its parts: a run's calls ask for one session again and again. */
  #last: { agentId: string; sessionKey: string; placement: SessionPlacement; handle: string } | undefined;

  /** The handle of an identity, minted on first sight. */
  handleFor(identity: SessionIdentity): string {
    const last = this.#last;
    // Same parts (the placement by identity, so its text is the one already taken) → same handle.
    if (last && last.agentId === identity.agentId && last.sessionKey === identity.sessionKey && last.placement === identity.placement) return last.handle;
    const handle = this.#handleOf(identity);
    this.#last = { agentId: identity.agentId, sessionKey: identity.sessionKey, placement: identity.placement, handle };
    return handle;
  }

  #handleOf(identity: SessionIdentity): string {
    let placementText = this.#texts.get(identity.placement);
    if (placementText === undefined) this.#texts.set(identity.placement, (placementText = canonicalJson(identity.placement)));
    const { agentId: a, sessionKey: k } = identity;
    // Two strings need no key sorting: their canonical text is plain JSON (the replacer made it slow).
    const text = (typeof a === 'string' && typeof k === 'string' ? JSON.stringify([a, k]) : canonicalJson([a, k])) + placementText;
    const known = this.#byIdentity.get(text);
    if (known) return known;
    const { agentId, sessionKey, placement } = identity;
    // Stable across kernels: the hash covers what names a sandbox (agent, key, backend, workspace).
    const digest = createHash('sha256').update(canonicalJson([agentId, sessionKey, placement.backendId, placement.workspaceDir ?? null])).digest('hex').slice(0, 12);
    const base = `${`${agentId}/${sessionKey}`.slice(0, READABLE_LIMIT)}#${digest}`;
    let handle = base;
    // The same agent, key and workspace under another placement (a config changed in place) is another session.
    for (let n = 2; this.#identityOf.has(handle); n++) handle = `${base}~${n}`;
    this.#byIdentity.set(text, handle);
    this.#identityOf.set(handle, text);
    return handle;
  }

  clear(): void {
    this.#last = undefined;
    this.#byIdentity.clear();
    this.#identityOf.clear();
  }
}
