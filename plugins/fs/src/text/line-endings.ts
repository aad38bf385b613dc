/** One line of a text and the terminator it had: each line keeps its own. */
export interface Line {
  text: string;
  eol: '\r\n' | '\n' | '';
}

export const BOM = '\uFEFF';

/** Split keeping every terminator; only the last line may have none. A lone `\r` is text, not a break. */
export function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  const breaks = /\r?\n/g;
  let start = 0;
  for (let m = breaks.exec(text); m !== null; m = breaks.exec(text)) {
    lines.push({ text: text.slice(start, m.index), eol: m[0] as Line['eol'] });
    start = m.index + m[0].length;
  }
  if (start < text.length) lines.push({ text: text.slice(start), eol: '' });
  return lines;
}

export function joinLines(lines: readonly Line[]): string {
  return lines.map((l) => l.text + l.eol).join('');
}

/** The file's convention for lines it did not have before: the more common terminator (LF on a tie or none). */
export function dominantEol(lines: readonly Line[]): '\r\n' | '\n' {
  let crlf = 0;
  let lf = 0;
  for (const line of lines) {
    if (line.eol === '\r\n') crlf += 1;
    else if (line.eol === '\n') lf += 1;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** The terminator of the line that contains character `index`, or the file's convention for an unterminated last line. */
export function eolOfLineAt(text: string, index: number): '\r\n' | '\n' {
  const next = text.indexOf('\n', index);
  if (next === -1) return dominantEol(splitLines(text));
  return text[next - 1] === '\r' ? '\r\n' : '\n';
}
