/** Listed sandboxes as the table's rows: times as ISO strings, sorted by name. */
import type { SandboxListing } from '../../kernel/index.js';
import type { SandboxRow } from '../format/sandbox.js';

export function toSandboxRows(listings: readonly SandboxListing[]): SandboxRow[] {
  return listings
    .map((info) => ({
      name: info.name,
      backend: info.backendId,
      scope: info.scope,
      scopeKey: info.scopeKey,
      agentId: info.agentId,
      image: info.image,
      state: info.running ? ('running' as const) : ('stopped' as const),
      createdAt: new Date(info.createdAtMs).toISOString(),
      lastUsedAt: info.lastUsedAtMs === undefined ? null : new Date(info.lastUsedAtMs).toISOString(),
      configHash: info.configHash,
      configMatches: info.configMatches,
    }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
