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

/** Key blobs trusted for host:port by the given known_hosts texts (markers like @revoked are skipped). */
export function trustedKeysFromKnownHosts(texts: readonly string[], host: string, port: number): Buffer[] {
  const wanted = hostPatternFor(host, port);
  const keys: Buffer[] = [];
  for (const text of texts) {
    for (const raw of text.split('\n')) {
      const line = raw.trim();
      if (!line || line.startsWith('#') || line.startsWith('@')) continue;
      const [hosts, , blob] = line.split(/\s+/);
      if (hosts && blob && matchesHost(hosts, wanted)) keys.push(Buffer.from(blob, 'base64'));
    }
  }
  return keys;
}

export function readKnownHosts(paths: readonly string[]): string[] {
  return paths.flatMap((p) => { try { return [readFileSync(p, 'utf8')]; } catch { return []; } });
}

/**
 * Decides whether a presented host key is trusted: a pinned key (blob or SHA256
 * fingerprint) if configured, else any known_hosts entry for host:port. No entry means
 * NOT trusted: a first connection is never silently accepted.
 */
export function isHostKeyTrusted(key: Buffer, pinned: string | undefined, known: readonly Buffer[]): boolean {
  if (pinned) {
    const p = pinned.trim();
    if (p.startsWith('SHA256:')) return fingerprintOf(key) === p;
    const blob = p.split(/\s+/)[1] ?? p;
    return Buffer.from(blob, 'base64').equals(key);
  }
  return known.some((k) => k.equals(key));
}
