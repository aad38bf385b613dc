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
];

/**
 * `name=value` / `name: value`. The name starts only where a name can start (lookbehind), so
 * the scan stays linear on long runs of name characters; whether the name is a credential's
 * is decided by `isSensitiveKey`, not by the pattern.
 */
const ASSIGNMENT = /(?<![A-Za-z0-9_.-])([A-Za-z][A-Za-z0-9_.-]*)(\s*[:=]\s*)("[^"]*"|'[^']*'|\S+)/g;

const SECRET_WORDS = new Set(['password', 'passwd', 'secret', 'token', 'apikey', 'credential', 'credentials', 'authorization', 'cookie']);
const SECRET_PAIRS = new Set(['api key', 'access key', 'private key', 'secret key', 'auth token']);
const MAX_KEY_CHARS = 128;

/**
 * A name that holds a credential: `token`, `api_key`, `x-api-key`, and environment-style names
 * such as `OPENAI_API_KEY`, `GITHUB_TOKEN`, `DB_PASSWORD` or `AWS_SECRET_ACCESS_KEY`. Judged by
 * its words, so `max_tokens` and `tokenizer` are not.
 */
export function isSensitiveKey(key: string): boolean {
  if (key.length > MAX_KEY_CHARS) return false;
  const words = key.toLowerCase().split(/[_.\-\s]+/).filter(Boolean);
  return words.some((word, i) => SECRET_WORDS.has(word) || (i > 0 && SECRET_PAIRS.has(`${words[i - 1]} ${word}`)));
}

export const REDACTED = '[redacted]';

/** Replace credential-looking substrings with `[redacted]`. */
export function redactSecretsInText(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, REDACTED);
  return out.replace(ASSIGNMENT, (match, key: string, separator: string) => (isSensitiveKey(key) ? `${key}${separator}${REDACTED}` : match));
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
    out[key] = isSensitiveKey(key) ? REDACTED : redactSecrets(nested, seen);
  }
  return out;
}
