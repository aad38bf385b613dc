/** Loose YAML values read the way skill authors write them. */

const TRUE = new Set(['true', 'yes', 'on', '1']);
const FALSE = new Set(['false', 'no', 'off', '0']);

/** A boolean or a boolean-ish string; `undefined` when absent, `null` when unreadable. */
export function readBoolean(value: unknown): boolean | undefined | null {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value === 1 ? true : value === 0 ? false : null;
  if (typeof value !== 'string') return null;
  const word = value.trim().toLowerCase();
  return TRUE.has(word) ? true : FALSE.has(word) ? false : null;
}

/** A non-empty trimmed string, else undefined. */
export function readString(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A list of strings, or a comma-separated string; other items are dropped and counted. */
export function readList(value: unknown): { items: string[]; dropped: number } {
  if (value === undefined || value === null) return { items: [], dropped: 0 };
  const raw: unknown[] = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : [value];
  const items: string[] = [];
  let dropped = 0;
  for (const item of raw) {
    const text = typeof item === 'string' ? item.trim() : undefined;
    if (text) items.push(text);
    else if (!(typeof item === 'string')) dropped += 1;
  }
  return { items, dropped };
}

/** C0 and C1 control characters and DEL: never part of a name, stripped from prompt text. */
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS_GLOBAL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function stripControlChars(text: string): string {
  return text.replace(CONTROL_CHARS_GLOBAL, ' ');
}
