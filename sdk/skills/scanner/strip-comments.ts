/**
 * Removes JavaScript/TypeScript comments before the heuristics run, so a commented-out
 * `eval(` or a URL in a comment does not count. Strings, template literals and regular
 * expression literals are kept (they are code); newlines are kept so line numbers hold.
 */

// After these characters a `/` starts a regular expression, not a division.
const REGEX_PRECEDERS = new Set(['', '(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);

export function stripComments(source: string): string {
  let out = '';
  let i = 0;
  let last = ''; // last significant character emitted
  const n = source.length;
  while (i < n) {
    const c = source[i];
    const next = source[i + 1];
    if (c === '/' && next === '/') {
      while (i < n && source[i] !== '\n') i += 1;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = source.indexOf('*/', i + 2);
      const stop = end === -1 ? n : end + 2;
      out += source.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      continue;
    }
    if (c === '"' || c === "'" || c === '`' || (c === '/' && REGEX_PRECEDERS.has(last))) {
      const start = i;
      let inClass = false;
      i += 1;
      while (i < n) {
        const d = source[i];
        if (d === '\\') i += 2;
        else if (c === '/' && d === '[') (inClass = true), (i += 1);
        else if (c === '/' && d === ']') (inClass = false), (i += 1);
        else if (d === c && !inClass) {
          i += 1;
          break;
        } else if (d === '\n' && c !== '`') break; // an unterminated string or regex ends at the line
        else i += 1;
      }
      out += source.slice(start, i);
      last = c;
      continue;
    }
    out += c;
    if (!/\s/.test(c)) last = c;
    i += 1;
  }
  return out;
}
