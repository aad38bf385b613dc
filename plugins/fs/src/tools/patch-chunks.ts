import { BOM, dominantEol, joinLines, splitLines, type Line } from '../text/line-endings.js';
import type { DiffLine, UpdateChunk } from './patch-parse.js';

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

const oldSide = (ops: readonly DiffLine[]): string[] => ops.filter((o) => o.op !== '+').map((o) => o.text);

/** A trailing blank line in the hunk is often just the patch's own line break: drop the last kept/removed line if it is blank. */
function withoutTrailingBlank(ops: readonly DiffLine[]): DiffLine[] | undefined {
  for (let i = ops.length - 1; i >= 0; i -= 1) {
    const op = ops[i] as DiffLine;
    if (op.op === '+') continue;
    return op.text === '' ? [...ops.slice(0, i), ...ops.slice(i + 1)] : undefined;
  }
  return undefined;
}

/**
 * Replace the lines at `start` by the chunk. Kept lines stay the file's own (text and
 * ending); an added line takes the ending of the removed line it stands in for (the n-th
 * added after a run of removed ones takes the n-th one's), else the file's convention `eol`.
 */
function spliceChunk(lines: Line[], start: number, ops: readonly DiffLine[], eol: Line['eol']): void {
  const replaced: Line[] = [];
  let removedEnds: Line['eol'][] = [];
  let k = start;
  for (const op of ops) {
    if (op.op === ' ') {
      replaced.push(lines[k++] as Line);
      removedEnds = [];
    } else if (op.op === '-') removedEnds.push((lines[k++] as Line).eol);
    else replaced.push({ text: op.text, eol: removedEnds.shift() ?? eol });
  }
  lines.splice(start, k - start, ...replaced);
}

/**
 * Apply update chunks to a file's text, in order, each searched after the previous one.
 * Every byte the patch does not change is kept: each line's own ending (LF or CRLF, mixed
 * files stay mixed), the text of context lines that matched only tolerantly, a BOM, and the
 * presence or absence of a final newline. A replacing line keeps the ending of the line it
 * replaces; other added lines follow the file's dominant ending.
 * Throws PatchConflictError naming the lines that could not be found.
 */
export function applyChunks(content: string, chunks: readonly UpdateChunk[], path: string): string {
  const bom = content.startsWith(BOM) ? BOM : '';
  const lines = splitLines(content.slice(bom.length));
  const texts = lines.map((l) => l.text);
  const eol = dominantEol(lines);
  const finalNewline = lines.length === 0 || (lines[lines.length - 1] as Line).eol !== '';
  const edits: { start: number; order: number; ops: readonly DiffLine[] }[] = [];
  let cursor = 0;
  for (const chunk of chunks) {
    if (chunk.context !== undefined) {
      const at = seekLines(texts, [chunk.context], cursor, false);
      if (at === -1) throw new PatchConflictError(`Could not find the context line '${chunk.context}' in ${path}`);
      cursor = at + 1;
    }
    let ops: readonly DiffLine[] = chunk.lines;
    if (oldSide(ops).length === 0) {
      const at = chunk.context !== undefined && !chunk.endOfFile ? cursor : lines.length;
      edits.push({ start: at, order: edits.length, ops });
      cursor = at;
      continue;
    }
    let at = seekLines(texts, oldSide(ops), cursor, chunk.endOfFile);
    const trimmed = at === -1 ? withoutTrailingBlank(ops) : undefined;
    if (trimmed !== undefined) {
      ops = trimmed;
      at = seekLines(texts, oldSide(ops), cursor, chunk.endOfFile);
    }
    if (at === -1) throw new PatchConflictError(`Could not find these lines in ${path}:\n${oldSide(chunk.lines).join('\n')}`);
    edits.push({ start: at, order: edits.length, ops });
    cursor = at + oldSide(ops).length;
  }
  // From the bottom so earlier indexes stay valid; at one index, the later chunk first so the earlier lands above it.
  for (const edit of edits.sort((a, b) => b.start - a.start || b.order - a.order)) spliceChunk(lines, edit.start, edit.ops, eol);
  lines.forEach((line, i) => {
    if (i < lines.length - 1 && line.eol === '') line.eol = eol;
  });
  const last = lines[lines.length - 1];
  if (last !== undefined) last.eol = finalNewline ? (last.eol === '' ? eol : last.eol) : '';
  return bom + joinLines(lines);
}
