import { createHash } from 'node:crypto';

/**
 * Normalizes a value for hashing: object keys sorted, `undefined` dropped at every depth
 * (including array elements), array order kept on purpose, because reordering e.g. `dns`
 * servers changes behaviour and must recreate the container.
 */
export function normalizeForHash(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.filter((item) => item !== undefined).map(normalizeForHash);
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort((x, y) => x.localeCompare(y))) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) out[key] = normalizeForHash(item);
    }
    return out;
  }
  return value;
}

/** sha256 hex of the normalized JSON; the container label that drives reuse (SPEC §5.7). */
export function computeSandboxConfigHash(config: unknown): string {
  return createHash('sha256').update(JSON.stringify(normalizeForHash(config)) ?? 'null').digest('hex');
}
