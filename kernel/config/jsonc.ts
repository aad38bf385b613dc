/**
 * Comments in a config file (`// …` and `/* … *\/`), so `pincer init` can write a starter config
 * that explains itself. Each comment becomes spaces (its newlines kept), so JSON.parse's error
 * positions still point into the file as written. Nothing else of JSON changes: no trailing commas.
 */

/** The text with every comment outside a string blanked; throws on an unterminated block comment. */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const char = text[i];
    if (char === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end;
    } else if (char === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end === -1 ? text.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (char === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) throw new SyntaxError(`Unterminated /* comment at position ${i}`);
      out += text.slice(i, end + 2).replace(/[^\n]/g, ' ');
      i = end + 2;
    } else {
      out += char;
      i += 1;
    }
  }
  return out;
}

/** Index just past the string starting at `start` (a `"`), honouring backslash escapes. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, text.length);
}

/** JSON.parse of a config file's text, comments allowed. */
export function parseJsonWithComments(text: string): unknown {
  return JSON.parse(stripJsonComments(text));
}
