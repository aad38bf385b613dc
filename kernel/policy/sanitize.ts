/**
 * Bounds and escapes text that ends up in warnings, audits and logs: a tool name or
 * config entry comes from config or a plugin and may hold control characters or be huge.
 */
export const MAX_AUDIT_FIELD_LENGTH = 160;
export const MAX_AUDIT_TOOL_NAMES = 50;

/** `\n`, `\r`, `\t` escaped; other control characters as `\xHH`. */
export function escapeControlChars(value: string): string {
  let out = '';
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return out;
}

/** Trimmed, escaped, `(unknown)` when empty, at most 160 characters then `...`. */
export function sanitizeAuditField(value: unknown): string {
  const escaped = escapeControlChars(String(value ?? '').trim());
  if (!escaped) return '(unknown)';
  if (escaped.length <= MAX_AUDIT_FIELD_LENGTH) return escaped;
  // Never cut a surrogate pair in half.
  let cut = MAX_AUDIT_FIELD_LENGTH;
  const code = escaped.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${escaped.slice(0, cut)}...`;
}

/** At most 50 sanitized names, and whether the list was cut. */
export function boundedNames(names: readonly string[]): { names: string[]; truncated: boolean } {
  const truncated = names.length > MAX_AUDIT_TOOL_NAMES;
  return { names: names.slice(0, MAX_AUDIT_TOOL_NAMES).map(sanitizeAuditField), truncated };
}
