import { createHash } from 'node:crypto';
import { isPlainObject } from './plain-object.js';
import { normalizeToolPolicyName } from '../policy/normalize.js';

/** What stands in for a value that must not reach a log: its kind, size and a short hash. */
export interface OmittedValueSummary {
  omitted: true;
  reason: string;
  type: string;
  chars: number;
  /** First 16 hex chars of sha256 of the serialized value: enough to spot "the same command again". */
  sha256: string;
}

export const OMITTED_ENV_VALUE = '[omitted exec env value]';
export const OMITTED_ENV = '[omitted exec env]';
const COMMAND_KEYS = new Set(['command', 'cmd']);

/** Text of a value as a log line would print it (strings as-is, the rest as JSON). */
export function serializeForLog(value: unknown): string {
  if (value === undefined) return '<undefined>';
  if (typeof value === 'string') return value;
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  try {
    const json = JSON.stringify(value);
    if (typeof json === 'string') return json;
  } catch {
    /* fall through to a type tag */
  }
  return Object.prototype.toString.call(value);
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  return value === null ? 'null' : typeof value;
}

/** Summarize a sensitive value without keeping any of its text. */
export function summarizeOmitted(value: unknown, reason: string): OmittedValueSummary {
  const serialized = serializeForLog(value);
  return {
    omitted: true,
    reason,
    type: kindOf(value),
    chars: serialized.length,
    sha256: createHash('sha256').update(serialized).digest('hex').slice(0, 16),
  };
}

function redactEnv(env: unknown): unknown {
  if (env === undefined) return undefined;
  if (!isPlainObject(env)) return OMITTED_ENV;
  // Keys stay (sorted, so two logs compare line by line); values never do.
  return Object.fromEntries(Object.keys(env).sort().map((key) => [key, OMITTED_ENV_VALUE]));
}

/**
 * Params of a failed `exec` call, safe to log: commands become summaries, env values are
 * replaced, other keys pass. A JSON string that parses to an object is treated as that object.
 */
export function redactExecParamsForLog(value: unknown): unknown {
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isPlainObject(parsed)) return redactExecParamsForLog(parsed);
    } catch {
      /* not JSON: summarized below */
    }
  }
  if (!isPlainObject(value)) return summarizeOmitted(value, 'exec params may contain command credentials');
  const redacted: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (COMMAND_KEYS.has(key)) redacted[key] = summarizeOmitted(field, 'exec command may contain credentials');
    else if (key === 'env') redacted[key] = redactEnv(field);
    else redacted[key] = field;
  }
  return redacted;
}

/**
 * Redaction by tool: only `exec` params are rewritten (the others pass through secret masking
 * elsewhere). Keyed on the canonical name, so a tool called `bash` or ` Exec ` is `exec` here too.
 */
export function redactToolParamsForLog(toolName: string, params: unknown): unknown {
  return normalizeToolPolicyName(toolName) === 'exec' ? redactExecParamsForLog(params) : params;
}
