/**
 * The log line of a failed tool call (SPEC §9.1), safe to keep: exec commands and env values
 * are summarized, content-like fields (file content, patches, message bodies) and long strings
 * appear only as their size and a digest (18.8), and what is left is secret-masked.
 */
import { normalizeToolPolicyName } from '../policy/normalize.js';
import { isPlainObject } from '../shared/plain-object.js';
import { redactToolParamsForLog, serializeForLog, summarizeOmitted } from '../shared/exec-redaction.js';
import { redactSecretsInText } from '../shared/redact-secrets.js';

/** Longest params preview in a failure log line. */
export const PARAMS_PREVIEW_MAX_CHARS = 600;

/** Keys whose values are what a tool writes or sends, never logged as text. */
const CONTENT_KEYS = new Set([
  'content', 'contents', 'text', 'data', 'body', 'payload', 'input', 'patch', 'diff', 'message', 'stdin', 'script', 'code',
  'newText', 'oldText', 'new_string', 'old_string', 'newString', 'oldString', 'edits', 'replacement',
]);
/** Any other string longer than this is summarized too: a path or a flag is short. */
const LONG_STRING_CHARS = 200;
const MAX_DEPTH = 8;
const REASON = 'content is not logged';

function summarizeContent(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return value.length > LONG_STRING_CHARS ? summarizeOmitted(value, REASON) : value;
  if (depth >= MAX_DEPTH && value !== null && typeof value === 'object') return summarizeOmitted(value, REASON);
  if (Array.isArray(value)) return value.map((entry) => summarizeContent(entry, depth + 1));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] = CONTENT_KEYS.has(key) && field !== undefined && field !== null ? summarizeOmitted(field, REASON) : summarizeContent(field, depth + 1);
  }
  return out;
}

/** Params of a failed call as a log may show them; keyed on the canonical tool name (a plugin tool `bash` is `exec`). */
export function redactParamsForFailureLog(toolName: string, params: unknown): unknown {
  let value = params;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isPlainObject(parsed)) value = parsed;
    } catch {
      /* not JSON: summarized as a string below */
    }
  }
  return summarizeContent(redactToolParamsForLog(normalizeToolPolicyName(toolName), value), 0);
}

function preview(label: string, toolName: string, params: unknown): string {
  const text = redactSecretsInText(serializeForLog(redactParamsForFailureLog(toolName, params)))
    .replace(/[\u0000-\u001f\u007f]/g, ' '); // one log line per failure
  const cut = text.length > PARAMS_PREVIEW_MAX_CHARS ? `${text.slice(0, PARAMS_PREVIEW_MAX_CHARS)}…` : text;
  return `${label}=${cut || '<empty>'}`;
}

/** `[tools] <name> failed: <message> raw_params=<preview>[ effective_params=<preview>]` (effective only when different). */
export function toolFailureLogLine(toolName: string, message: string, rawParams: unknown, effectiveParams?: unknown): string {
  const raw = preview('raw_params', toolName, rawParams);
  const inputs = [raw];
  if (effectiveParams !== undefined) {
    const effective = preview('effective_params', toolName, effectiveParams);
    if (effective.slice('effective_params'.length) !== raw.slice('raw_params'.length)) inputs.push(effective);
  }
  return `[tools] ${toolName} failed: ${redactSecretsInText(message)} ${inputs.join(' ')}`;
}
