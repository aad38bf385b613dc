/**
 * The last catalog seen from each server, kept in the data directory so that a restarted bridge
 * can list a server's tools without starting it (servers are connected on first use). An entry
 * counts only for the same server settings: a changed command or URL is discovered afresh.
 */
import { createHash } from 'node:crypto';
import type { ServerSettings } from '../config.js';
import { readJsonFile, writeJsonFileAtomic } from '../state-file.js';
import { canonicalJson } from './canonical-json.js';
import type { ServerCatalog } from './types.js';

interface CacheEntry {
  settingsHash: string;
  catalog: ServerCatalog;
  fetchedAt: string;
}

/** What identifies a server's offer: how it is reached, not its deadlines. */
function settingsHash(settings: ServerSettings): string {
  const { timeoutMs: _t, toolTimeoutsMs: _tt, maxTotalTimeoutMs: _m, connectTimeoutMs: _c, ...identity } = settings;
  return createHash('sha256').update(canonicalJson(identity)).digest('hex').slice(0, 32);
}

export class CatalogCache {
  #entries: Record<string, CacheEntry>;

  constructor(private readonly path: string | undefined) {
    const data = path ? (readJsonFile(path) as { servers?: Record<string, CacheEntry> } | undefined) : undefined;
    this.#entries = data?.servers && typeof data.servers === 'object' ? data.servers : {};
  }

  get(server: string, settings: ServerSettings): ServerCatalog | undefined {
    const entry = this.#entries[server];
    if (!entry || entry.settingsHash !== settingsHash(settings) || !Array.isArray(entry.catalog?.tools)) return undefined;
    return entry.catalog;
  }

  set(server: string, settings: ServerSettings, catalog: ServerCatalog): void {
    this.#entries[server] = { settingsHash: settingsHash(settings), catalog, fetchedAt: new Date().toISOString() };
    if (this.path) writeJsonFileAtomic(this.path, { version: 1, servers: this.#entries });
  }
}
