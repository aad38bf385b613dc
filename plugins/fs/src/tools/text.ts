/**
 * Binary detection on text decoded as UTF-8, over the whole file (binary tails hide past
 * any prefix): a NUL byte, or more than 2% replacement characters (bytes that are not UTF-8).
 * Applied after decoding so a text read needs one call.
 */
export function looksBinary(text: string): boolean {
  if (text.includes('\u0000')) return true;
  const replacements = text.match(/\uFFFD/g)?.length ?? 0;
  return replacements > 0 && replacements / text.length > 0.02;
}

/** Split into lines without the terminators; a trailing newline does not add an empty last line. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** 1-based line number of a character offset. */
export function lineNumberAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}
