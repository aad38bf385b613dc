import type { UpdateChunk } from './patch-parse.js';

export class PatchConflictError extends Error {
  override readonly name = 'PatchConflictError';
}

/** Typographic punctuation models sometimes "correct" in copied lines, mapped back to ASCII. */
function normalizePunctuation(line: string): string {
  return line
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018-\u201B]/g, "'")
    .replace(/[\u201C-\u201F]/g, '"')
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, ' ');
}

/** Matchers from strict to tolerant; the first that finds the lines wins. */
const MATCHERS: ((a: string, b: string) => boolean)[] = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
  (a, b) => normalizePunctuation(a).trim() === normalizePunctuation(b).trim(),
];

/** Index of `pattern` in `lines` at or after `from` (at the very end when `atEnd`), or -1. */
export function seekLines(lines: readonly string[], pattern: readonly string[], from: number, atEnd: boolean): number {
  if (pattern.length === 0) return from;
  if (pattern.length > lines.length) return -1;
  for (const same of MATCHERS) {
    const matchesAt = (start: number) => pattern.every((p, k) => same(lines[start + k] as string, p));
    if (atEnd) {
      const start = lines.length - pattern.length;
      if (start >= from && matchesAt(start)) return start;
    }
    for (let start = from; start <= lines.length - pattern.length; start += 1) if (matchesAt(start)) return start;
  }
  return -1;
}

/**
 * Apply update chunks to a file's text, in order, each searched after the previous
 * one. Line endings (LF or CRLF) and the presence of a final newline are kept.
 * Throws PatchConflictError naming the lines that could not be found.
 */
export function applyChunks(content: string, chunks: readonly UpdateChunk[], path: string): string {
  const eol = content.includes('\r\n') ? '\r\n' : '\n';
  const lines = content.split(/\r?\n/);
  const finalNewline = lines[lines.length - 1] === '';
  if (finalNewline) lines.pop();
  const edits: { start: number; remove: number; insert: string[] }[] = [];
  let cursor = 0;
  for (const chunk of chunks) {
    if (chunk.context !== undefined) {
      const at = seekLines(lines, [chunk.context], cursor, false);
      if (at === -1) throw new PatchConflictError(`Could not find the context line '${chunk.context}' in ${path}`);
      cursor = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      const at = chunk.context !== undefined && !chunk.endOfFile ? cursor : lines.length;
      edits.push({ start: at, remove: 0, insert: chunk.newLines });
      cursor = at;
      continue;
    }
    let oldLines = chunk.oldLines;
    let newLines = chunk.newLines;
    let at = seekLines(lines, oldLines, cursor, chunk.endOfFile);
    // A trailing blank line in the hunk is often just the patch's own line break.
    if (at === -1 && oldLines[oldLines.length - 1] === '') {
      oldLines = oldLines.slice(0, -1);
      if (newLines[newLines.length - 1] === '') newLines = newLines.slice(0, -1);
      at = seekLines(lines, oldLines, cursor, chunk.endOfFile);
    }
    if (at === -1) throw new PatchConflictError(`Could not find these lines in ${path}:\n${chunk.oldLines.join('\n')}`);
    edits.push({ start: at, remove: oldLines.length, insert: newLines });
    cursor = at + oldLines.length;
  }
  // Apply from the bottom so earlier indexes stay valid.
  for (const edit of edits.sort((a, b) => b.start - a.start)) lines.splice(edit.start, edit.remove, ...edit.insert);
  const body = lines.join(eol);
  return finalNewline || content === '' ? `${body}${lines.length > 0 ? eol : ''}` : body;
}
