import * as z from 'zod';
import { defineTool } from '../../../../sdk/plugin-api.js';
import { explained, fail, ok, type FsToolContext } from './results.js';
import { firstInvalidUtf8 } from '../text/utf8.js';
import { looksBinary, splitLines } from './text.js';

/** Largest file `read` accepts; bigger ones fail with FILE_TOO_LARGE and a hint to read a slice with exec. */
export const READ_MAX_BYTES = 5 * 1024 * 1024;
/** Largest binary file returned as base64 (it is 4/3 the size in the result). */
export const READ_MAX_BASE64_BYTES = 1024 * 1024;
/** Most characters of text one result carries; the rest is reached with offset. */
export const READ_MAX_OUTPUT_CHARS = 64 * 1024;

export const ReadParams = z.object({
  path: z.string().min(1).describe('File to read, relative to the workspace root (or absolute inside it, e.g. /workspace/src/a.ts).'),
  offset: z.number().int().min(1).default(1).describe('1-based line number to start at (default 1).'),
  limit: z.number().int().min(1).max(100_000).default(2000).describe('Most lines to return (default 2000).'),
  encoding: z
    .enum(['text', 'base64'])
    .default('text')
    .describe('"text" (default) returns lines and refuses binary files; "base64" returns the raw bytes of a file up to 1 MiB.'),
});

export async function runRead(params: z.output<typeof ReadParams>, ctx: FsToolContext) {
  return explained({ path: params.path }, async () => {
    if (params.encoding === 'base64') {
      const raw = await ctx.workspace.read(params.path, { encoding: 'base64', maxBytes: READ_MAX_BASE64_BYTES }, ctx.signal);
      return ok(raw.content, { path: raw.path, size: raw.size, encoding: 'base64' });
    }
    const file = await ctx.workspace.read(params.path, { encoding: 'utf8', maxBytes: READ_MAX_BYTES }, ctx.signal);
    if (looksBinary(file.content)) {
      return fail(
        'BINARY_FILE',
        `${params.path} is a binary file (${file.size} bytes); its bytes are not shown as text`,
        'Pass encoding: "base64" to receive the bytes (files up to 1 MiB), or inspect it with exec (`file`, `xxd FILE | head`).',
        { path: file.path, size: file.size },
      );
    }
    const lines = splitLines(file.content);
    if (lines.length === 0) return ok('(empty file)', { path: file.path, size: file.size, totalLines: 0 });
    const start = params.offset - 1;
    if (start >= lines.length) {
      return fail('INVALID_ARGUMENT', `offset ${params.offset} is past the end of ${params.path} (${lines.length} lines)`, `Use an offset between 1 and ${lines.length}.`, {
        path: file.path,
        totalLines: lines.length,
      });
    }
    const window = pickLines(lines, start, params.limit);
    const endLine = start + window.lines.length;
    const notes: string[] = [];
    if (window.cutLine !== undefined) notes.push(cutLineNote(start + 1, window.cutLine, params.path));
    const truncated = endLine < lines.length;
    if (truncated) notes.push(`[Showing lines ${params.offset}-${endLine} of ${lines.length}. Use offset=${endLine + 1} to continue.]`);
    const invalidAt = file.content.includes('\uFFFD') ? await firstInvalidByte(ctx, file.path) : -1;
    if (invalidAt !== -1) notes.push(`[Not valid UTF-8 (first invalid byte at offset ${invalidAt}): such bytes are shown as \uFFFD. edit and apply_patch refuse this file.]`);
    const text = [window.lines.join('\n'), ...notes].join('\n\n');
    return ok(text, {
      path: file.path,
      size: file.size,
      totalLines: lines.length,
      startLine: params.offset,
      endLine,
      truncated: truncated || window.cutLine !== undefined,
      ...(invalidAt !== -1 ? { notUtf8: true } : {}),
    });
  });
}

/** Lines from `start` within the output cap; a single line longer than the cap is cut at it (never mid surrogate pair). */
function pickLines(lines: readonly string[], start: number, limit: number): { lines: string[]; cutLine?: number } {
  const picked: string[] = [];
  let chars = 0;
  for (let i = start; i < Math.min(lines.length, start + limit); i += 1) {
    const line = lines[i] as string;
    if (picked.length === 0 && line.length > READ_MAX_OUTPUT_CHARS) {
      const cut = /[\uD800-\uDBFF]/.test(line[READ_MAX_OUTPUT_CHARS - 1] as string) ? READ_MAX_OUTPUT_CHARS - 1 : READ_MAX_OUTPUT_CHARS;
      return { lines: [line.slice(0, cut)], cutLine: line.length };
    }
    if (chars + line.length + 1 > READ_MAX_OUTPUT_CHARS) break;
    picked.push(line);
    chars += line.length + 1;
  }
  return { lines: picked };
}

function cutLineNote(line: number, length: number, path: string): string {
  return `[Line ${line} has ${length} characters; only the first ${READ_MAX_OUTPUT_CHARS} are shown. See the rest with exec, e.g. \`sed -n '${line}p' ${path} | cut -c ${READ_MAX_OUTPUT_CHARS + 1}-${2 * READ_MAX_OUTPUT_CHARS}\`.]`;
}

/** The decoded text has U+FFFD: find out from the raw bytes whether the file itself is not UTF-8. */
async function firstInvalidByte(ctx: FsToolContext, path: string): Promise<number> {
  const raw = await ctx.workspace.read(path, { encoding: 'base64', maxBytes: READ_MAX_BYTES }, ctx.signal);
  return firstInvalidUtf8(Buffer.from(raw.content, 'base64'));
}

export const readTool = defineTool({
  name: 'read',
  description:
    'Read a text file of the workspace. Returns up to `limit` lines starting at line `offset` (1-based) and says how to continue when more remain. Binary files are refused unless encoding is "base64". Files over 5 MiB are refused; read a slice of those with exec.',
  inputSchema: ReadParams,
  executionMode: 'parallel',
  handler: runRead,
});
