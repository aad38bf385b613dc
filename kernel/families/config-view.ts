/**
 * The config as the read-only `gateway` tool shows it: effective (defaults filled in),
 * secrets redacted before anything else happens (so no `path` reaches an unredacted value),
 * and addressed by a dotted path (`agents.list[0].sandbox`, `tools.message`).
 */
import type { PincerConfig } from '../config/schema.js';
import { PincerConfigSchema } from '../config/schema.js';
import { REDACTED, redactSecretsInText } from '../shared/redact-secrets.js';
import { FamilyToolError } from './results.js';

/** Keys whose values are secrets; names of where a secret lives (`secretFile`, `privateKeyPath`) are not. */
const SECRET_KEY = /(secret|passw(or)?d|passphrase|token|api[-_]?key|authori[sz]ation|cookie|credential|private[-_]?key)/i;
const LOCATOR_KEY = /(path|file|env|dir)$/i;

function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key) && !LOCATOR_KEY.test(key);
}

/** `https://user:pass@host/x?token=y` → credentials and secret-looking query values masked. */
function redactUrl(text: string): string {
  return text
    .replace(/(\b[a-z][a-z0-9+.-]*:\/\/)[^/\s@]*@/gi, `$1${REDACTED}@`)
    .replace(/([?&](?:[^=&\s]*(?:token|secret|key|sig|signature|password)[^=&\s]*)=)[^&\s#]*/gi, `$1${REDACTED}`);
}

/** A redacted deep copy. Every value of an `env` map is a secret until proven otherwise. */
export function redactConfig(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return isSecretKey(key) ? REDACTED : redactUrl(redactSecretsInText(value));
  if (value === null || typeof value !== 'object') return isSecretKey(key) && value !== undefined ? REDACTED : value;
  if (Array.isArray(value)) return value.map((entry) => redactConfig(entry));
  const out: Record<string, unknown> = {};
  for (const [name, nested] of Object.entries(value)) {
    if (key === 'env' && nested !== null && typeof nested !== 'object') out[name] = REDACTED;
    else out[name] = isSecretKey(name) && nested !== null && typeof nested !== 'object' ? REDACTED : redactConfig(nested, name);
  }
  return out;
}

/** The config with defaults filled in (as the kernel runs it), then redacted. */
export function effectiveRedactedConfig(config: PincerConfig): unknown {
  const parsed = PincerConfigSchema.safeParse(config);
  return redactConfig(parsed.success ? parsed.data : config);
}

const UNSAFE_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

/** `agents.list[0].sandbox` → ['agents', 'list', '0', 'sandbox']; undefined for a malformed path. */
export function splitConfigPath(path: string): string[] | undefined {
  const segments = path.trim().replace(/\[(\d+|\*|)\]/g, (_, index: string) => `.${index || '*'}`).split('.').filter((s) => s !== '');
  if (segments.length === 0 || segments.some((segment) => UNSAFE_SEGMENTS.has(segment) || /[[\]]/.test(segment))) return undefined;
  return segments;
}

export function configAtPath(root: unknown, path: string): unknown {
  const notFound = () => new FamilyToolError('CONFIG_PATH_NOT_FOUND', `config path not found: ${JSON.stringify(path.slice(0, 200))}`, 'Leave "path" out for the whole config, or use a path such as "tools.sandbox".');
  const segments = splitConfigPath(path);
  if (!segments) throw notFound();
  let node = root;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, segment)) throw notFound();
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}
