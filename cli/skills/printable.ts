/**
 * Skill trees are written by whoever controls a workspace: a directory name, a scanned line
 * or a plugin's detail may hold terminal control sequences (clearing a finding off the screen,
 * setting the clipboard). Text for a terminal shows each control character as `\xHH` instead.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

export function printable(text: string): string {
  return text.replace(CONTROL, (ch) => `\\x${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}

/** The same value with every string in it made printable (plain data: objects, arrays, strings). */
export function printableDeep<T>(value: T): T {
  if (typeof value === 'string') return printable(value) as T;
  if (Array.isArray(value)) return value.map((item) => printableDeep(item)) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, printableDeep(item)])) as T;
  return value;
}
