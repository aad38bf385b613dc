/**
 * Binary detection on text decoded as UTF-8: a NUL byte, or a run of replacement
 * characters (bytes that are not UTF-8), in the first 8 KiB. The same heuristic
 * git and most editors use, applied after decoding so a text read needs one call.
 */
export function looksBinary(text: string): boolean {
  const sample = text.length > 8192 ? text.slice(0, 8192) : text;
  if (sample.includes('\u0000')) return true;
  let replacements = 0;
  for (const char of sample) if (char === '\uFFFD') replacements += 1;
  return replacements > 0 && replacements / Math.max(sample.length, 1) > 0.02;
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
