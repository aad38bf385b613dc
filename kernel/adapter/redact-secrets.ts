/**
 * Mask well-known credential shapes in text and values shown to observers and logs.
 * Best effort by design: the real protection is that raw params never reach diagnostics.
 */

const SECRET_PATTERNS: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g,
  /\bsk-[A-Za-z0-9_-]{16,}/g,
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bBearer\s+[A-Za-z0-9._~+/-]{8,}=*/gi,
  /\b(password|passwd|secret|token|api[_-]?key)(\s*[:=]\s*)("[^"]*"|'[^']*'|\S+)/gi,
];

const SENSITIVE_KEY = /^(password|passwd|secret|token|api[_-]?key|authorization|cookie|private[_-]?key)$/i;
export const REDACTED = '[redacted]';

/** Replace credential-looking substrings with `[redacted]`. */
export function redactSecretsInText(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) {
    out = out.replace(pattern, (match, key?: string, sep?: string) =>
      typeof key === 'string' && typeof sep === 'string' && match.startsWith(key) ? `${key}${sep}${REDACTED}` : REDACTED);
  }
  return out;
}

/** A redacted deep copy: strings masked, values under sensitive keys dropped, cycles cut. */
export function redactSecrets(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'string') return redactSecretsInText(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((entry) => redactSecrets(entry, seen));
  const out: Record<string, unknown> = {};
  for (const [key, nested] of Object.entries(value)) {
    out[key] = SENSITIVE_KEY.test(key) ? REDACTED : redactSecrets(nested, seen);
  }
  return out;
}
