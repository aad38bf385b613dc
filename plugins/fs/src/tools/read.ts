import { z } from 'zod';
import { defineTool } from '../../../../sdk/plugin-api.js';
import { explained, fail, ok, type FsToolContext } from './results.js';
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
    const picked: string[] = [];
    let chars = 0;
    for (let i = start; i < Math.min(lines.length, start + params.limit); i += 1) {
      const line = lines[i] as string;
      // Always return at least one line, even an enormous one, so offset can make progress.
      if (picked.length > 0 && chars + line.length + 1 > READ_MAX_OUTPUT_CHARS) break;
      picked.push(line);
      chars += line.length + 1;
    }
    const endLine = start + picked.length;
    let text = picked.join('\n');
    const truncated = endLine < lines.length;
    if (truncated) text += `\n\n[Showing lines ${params.offset}-${endLine} of ${lines.length}. Use offset=${endLine + 1} to continue.]`;
    return ok(text, { path: file.path, size: file.size, totalLines: lines.length, startLine: params.offset, endLine, truncated });
  });
}

export const readTool = defineTool({
  name: 'read',
  description:
    'Read a text file of the workspace. Returns up to `limit` lines starting at line `offset` (1-based) and says how to continue when more remain. Binary files are refused unless encoding is "base64". Files over 5 MiB are refused; read a slice of those with exec.',
  inputSchema: ReadParams,
  executionMode: 'parallel',
  handler: runRead,
});
