import { eolOfLineAt } from '../text/line-endings.js';

/** One place oldText matched: where, and the file's own text there (its line endings may differ from oldText's). */
export interface EditMatch {
  index: number;
  matched: string;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every non-overlapping occurrence of `oldText`: exactly as written, or else with each
 * line break matching either LF or CRLF (models write `\n`; the file keeps its own endings).
 */
export function findMatches(content: string, oldText: string): EditMatch[] {
  const exact: EditMatch[] = [];
  for (let i = content.indexOf(oldText); i !== -1; i = content.indexOf(oldText, i + oldText.length)) exact.push({ index: i, matched: oldText });
  if (exact.length > 0 || !oldText.includes('\n')) return exact;
  const pattern = new RegExp(escapeRegExp(oldText.replace(/\r\n/g, '\n')).replace(/\n/g, '\\r?\\n'), 'g');
  return [...content.matchAll(pattern)].map((m) => ({ index: m.index as number, matched: m[0] }));
}

/**
 * newText with the line breaks the file uses at the match: the k-th break takes the k-th
 * break of the replaced text, extra breaks take the last one (or, for a match inside one
 * line, that line's own ending). A newText that spells out `\r` is taken as written.
 */
export function withFileEndings(newText: string, match: EditMatch, content: string): string {
  if (newText.includes('\r')) return newText;
  const breaks = match.matched.match(/\r?\n/g) ?? [];
  const fallback = breaks[breaks.length - 1] ?? eolOfLineAt(content, match.index);
  let k = 0;
  return newText.replace(/\n/g, () => breaks[k++] ?? fallback);
}

/** The content with every listed match replaced, each with newText in the file's endings. */
export function replaceMatches(content: string, matches: readonly EditMatch[], newText: string): string {
  let out = '';
  let from = 0;
  for (const match of matches) {
    out += content.slice(from, match.index) + withFileEndings(newText, match, content);
    from = match.index + match.matched.length;
  }
  return out + content.slice(from);
}
