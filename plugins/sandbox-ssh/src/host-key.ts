import { createHash, createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** SHA256 fingerprint as OpenSSH prints it (`SHA256:` + unpadded base64). */
export function fingerprintOf(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

// known_hosts names a non-default port as `[host]:port`.
function hostPatternFor(host: string, port: number): string {
  return port === 22 ? host : `[${host}]:${port}`;
}

function matchesHost(field: string, wanted: string): boolean {
  for (const name of field.split(',')) {
    if (name.startsWith('|1|')) {
      // Hashed entry: |1|base64(salt)|base64(HMAC-SHA1(salt, host))
      const [, , salt, hash] = name.split('|');
      if (salt && hash && createHmac('sha1', Buffer.from(salt, 'base64')).update(wanted).digest('base64') === hash) return true;
    } else if (name === wanted) {
      return true;
    }
  }
  return false;
}

interface KnownHostsLine {
  marker?: string;
  hosts: string;
  blob: string;
}

function* knownHostsLines(texts: readonly string[]): Generator<KnownHostsLine> {
  for (const text of texts) {
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('#')) continue;
      const fields = line.split(/\s+/);
      const marker = fields[0]?.startsWith('@') ? fields.shift() : undefined;
      const [hosts, , blob] = fields;
      if (hosts && blob) yield { marker, hosts, blob };
    }
  }
}

/** Key blobs trusted for host:port by the given known_hosts texts (`@cert-authority` and `@revoked` lines never grant trust). */
export function trustedKeysFromKnownHosts(texts: readonly string[], host: string, port: number): Buffer[] {
  const wanted = hostPatternFor(host, port);
  const keys: Buffer[] = [];
  for (const line of knownHostsLines(texts)) {
    if (!line.marker && matchesHost(line.hosts, wanted)) keys.push(Buffer.from(line.blob, 'base64'));
  }
  return keys;
}

/**
 * Key blobs on `@revoked` lines. A revoked key is refused for every host, whatever its host
 * field says: a key known to be compromised is not trusted anywhere, even when pinned.
 */
export function revokedKeysFromKnownHosts(texts: readonly string[]): Buffer[] {
  return [...knownHostsLines(texts)].filter((l) => l.marker === '@revoked').map((l) => Buffer.from(l.blob, 'base64'));
}

export function readKnownHosts(paths: readonly string[]): string[] {
  return paths.flatMap((p) => { try { return [readFileSync(p, 'utf8')]; } catch { return []; } });
}

/**
 * Decides whether a presented host key is trusted: never a revoked one; else a pinned key
 * (blob or SHA256 fingerprint) if configured, else any known_hosts entry for host:port. No
 * entry means NOT trusted: a first connection is never silently accepted.
 */
export function isHostKeyTrusted(key: Buffer, pinned: string | undefined, known: readonly Buffer[], revoked: readonly Buffer[] = []): boolean {
  if (revoked.some((k) => k.equals(key))) return false;
  if (pinned) {
    const p = pinned.trim();
    if (p.startsWith('SHA256:')) return fingerprintOf(key) === p;
    const blob = p.split(/\s+/)[1] ?? p;
    return Buffer.from(blob, 'base64').equals(key);
  }
  return known.some((k) => k.equals(key));
}
