/**
 * The grant of the direct channel: HMAC-SHA256 over `<session>\n<plugin>` keyed with the
 * secret of the session's last `sandbox/prepare`, in base64url. The kernel makes one for each
 * plugin it has called for a session; the backend recomputes it to verify. A new prepare
 * carries a new secret, so it voids every grant made before it. Written here, beside the
 * schemas, because both ends of the wire compute it (docs/protocol.md, "Direct channel").
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A fresh prepare secret (256 bits, base64url). */
export function newDirectSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function directGrant(secret: string, session: string, plugin: string): string {
  return createHmac('sha256', secret).update(`${session}\n${plugin}`).digest('base64url');
}

/** Whether `grant` is the one `secret` makes for (session, plugin), compared in constant time. */
export function verifyDirectGrant(secret: string, session: string, plugin: string, grant: string): boolean {
  const expected = Buffer.from(directGrant(secret, session, plugin));
  const given = Buffer.from(grant);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
