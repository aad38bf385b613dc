/**
 * Parser of the apply_patch format:
 *
 *   *** Begin Patch
 *   *** Add File: path        (then every line starts with "+")
 *   *** Delete File: path
 *   *** Update File: path
 *   *** Move to: new/path     (optional, right after Update File)
 *   @@ optional context line  (a chunk; the first chunk may omit "@@")
 *    context / -removed / +added lines
 *   *** End of File           (optional: the chunk must match at the end)
 *   *** End Patch
 */
/** One line of a chunk: kept (' '), removed ('-') or added ('+'). */
export interface DiffLine {
  op: ' ' | '-' | '+';
  text: string;
}

export interface UpdateChunk {
  /** A line that must precede the chunk (from "@@ <line>"). */
  context?: string;
  lines: DiffLine[];
  endOfFile: boolean;
}

export type PatchHunk =
  | { kind: 'add'; path: string; contents: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; movePath?: string; chunks: UpdateChunk[] };

export class PatchParseError extends Error {
  override readonly name = 'PatchParseError';
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const EOF_MARKER = '*** End of File';

export function parsePatch(input: string): PatchHunk[] {
  const lines = input.trim().split(/\r?\n/);
  if (lines[0]?.trim() !== BEGIN) throw new PatchParseError(`The first line of the patch must be '${BEGIN}'`);
  if (lines[lines.length - 1]?.trim() !== END) throw new PatchParseError(`The last line of the patch must be '${END}'`);
  const hunks: PatchHunk[] = [];
  let i = 1;
  const last = lines.length - 1;
  const pathAfter = (line: string, marker: string): string => {
    const path = line.slice(marker.length).trim();
    if (path === '') throw new PatchParseError(`Line ${i + 1}: '${marker.trim()}' needs a path`);
    return path;
  };
  while (i < last) {
    const header = (lines[i] as string).trim();
    if (header === '') {
      i += 1;
    } else if (header.startsWith(ADD)) {
      const path = pathAfter(header, ADD);
      const body: string[] = [];
      for (i += 1; i < last && (lines[i] as string).startsWith('+'); i += 1) body.push((lines[i] as string).slice(1));
      hunks.push({ kind: 'add', path, contents: body.length === 0 ? '' : `${body.join('\n')}\n` });
    } else if (header.startsWith(DELETE)) {
      hunks.push({ kind: 'delete', path: pathAfter(header, DELETE) });
      i += 1;
    } else if (header.startsWith(UPDATE)) {
      const path = pathAfter(header, UPDATE);
      i += 1;
      let movePath: string | undefined;
      if (i < last && (lines[i] as string).trim().startsWith(MOVE)) {
        movePath = pathAfter((lines[i] as string).trim(), MOVE);
        i += 1;
      }
      const chunks: UpdateChunk[] = [];
      while (i < last && !(lines[i] as string).startsWith('***')) {
        if ((lines[i] as string).trim() === '' && !isChunkLine(lines, i, last)) {
          i += 1;
          continue;
        }
        i = parseChunk(lines, i, last, chunks);
      }
      if (chunks.length === 0) throw new PatchParseError(`Update of '${path}' has no changes`);
      hunks.push({ kind: 'update', path, ...(movePath !== undefined ? { movePath } : {}), chunks });
    } else {
      throw new PatchParseError(`Line ${i + 1}: '${header}' is not a valid hunk header. Valid headers: '${ADD}{path}', '${DELETE}{path}', '${UPDATE}{path}'`);
    }
  }
  if (hunks.length === 0) throw new PatchParseError('The patch contains no file operations');
  return hunks;
}

/** A blank line between chunks is skipped; a blank line followed by more diff lines is empty context. */
function isChunkLine(lines: string[], i: number, last: number): boolean {
  const next = lines[i + 1];
  return next !== undefined && i + 1 < last && /^[ +-]/.test(next);
}

function parseChunk(lines: string[], start: number, last: number, chunks: UpdateChunk[]): number {
  let i = start;
  const chunk: UpdateChunk = { lines: [], endOfFile: false };
  const first = lines[i] as string;
  if (first === '@@' || first.startsWith('@@ ')) {
    const context = first.slice(3);
    if (context !== '') chunk.context = context;
    i += 1;
  } else if (chunks.length > 0) {
    throw new PatchParseError(`Line ${i + 1}: expected a chunk to start with '@@', got '${first}'`);
  }
  let body = 0;
  for (; i < last; i += 1) {
    const line = lines[i] as string;
    if (line === EOF_MARKER) {
      chunk.endOfFile = true;
      i += 1;
      break;
    }
    if (line.startsWith('@@') || line.startsWith('***')) break;
    const marker = line[0];
    const text = line.slice(1);
    if (marker === undefined || marker === ' ' || marker === '-' || marker === '+') chunk.lines.push({ op: marker ?? ' ', text });
    else throw new PatchParseError(`Line ${i + 1}: '${line}' must start with ' ' (context), '-' (removed) or '+' (added)`);
    body += 1;
  }
  if (body === 0) throw new PatchParseError(`Line ${start + 1}: the chunk has no lines`);
  chunks.push(chunk);
  return i;
}
