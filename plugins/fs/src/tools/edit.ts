import { z } from 'zod';
import { defineTool } from '../../../../sdk/plugin-api.js';
import { explained, FsToolError, ok, type FsToolContext } from './results.js';
import { READ_MAX_BYTES } from './read.js';
import { lineNumberAt, looksBinary } from './text.js';

export const EditParams = z.object({
  path: z.string().min(1).describe('File to edit, relative to the workspace root.'),
  oldText: z.string().min(1).describe('Exact text to replace, including whitespace and indentation. It must occur exactly once unless replaceAll is true.'),
  newText: z.string().describe('Text to put in its place (may be empty to delete oldText).'),
  replaceAll: z.boolean().default(false).describe('Replace every occurrence instead of requiring exactly one.'),
});

function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) found.push(i);
  return found;
}

/** A hint for a miss: where the first line of oldText appears when indentation is ignored. */
function nearMiss(content: string, oldText: string): string {
  const first = oldText.split(/\r?\n/).find((l) => l.trim() !== '')?.trim();
  if (first === undefined) return 'Read the file and copy the exact text, including whitespace.';
  const lines = content.split(/\r?\n/);
  const at = lines.findIndex((l) => l.trim() === first);
  return at === -1
    ? 'Read the file and copy the exact text, including whitespace.'
    : `A line matching the first line of oldText (ignoring indentation) is at line ${at + 1}; read it again and copy the exact text, including whitespace.`;
}

export async function runEdit(params: z.output<typeof EditParams>, ctx: FsToolContext) {
  return explained({ path: params.path }, async () => {
    if (params.oldText === params.newText) throw new FsToolError('NO_CHANGE', 'oldText and newText are identical; nothing to change');
    const file = await ctx.workspace.read(params.path, { maxBytes: READ_MAX_BYTES }, ctx.signal);
    if (looksBinary(file.content)) throw new FsToolError('BINARY_FILE', `${params.path} is a binary file; edit works on text`, 'Use write with encoding "base64" to replace binary content.');
    let oldText = params.oldText;
    let newText = params.newText;
    let found = occurrences(file.content, oldText);
    // Models write "\n"; a CRLF file keeps its line endings when the only difference is the terminator.
    if (found.length === 0 && file.content.includes('\r\n') && !oldText.includes('\r\n')) {
      oldText = oldText.replace(/\n/g, '\r\n');
      newText = newText.replace(/\r?\n/g, '\r\n');
      found = occurrences(file.content, oldText);
    }
    if (found.length === 0) throw new FsToolError('NO_MATCH', `oldText was not found in ${params.path}`, nearMiss(file.content, params.oldText));
    const lines = found.map((index) => lineNumberAt(file.content, index));
    if (found.length > 1 && !params.replaceAll) {
      throw new FsToolError(
        'AMBIGUOUS_MATCH',
        `oldText occurs ${found.length} times in ${params.path} (lines ${lines.slice(0, 10).join(', ')}${lines.length > 10 ? ', …' : ''})`,
        'Include more surrounding lines in oldText so it matches once, or pass replaceAll: true.',
      );
    }
    const updated = params.replaceAll
      ? file.content.split(oldText).join(newText)
      : file.content.slice(0, found[0]) + newText + file.content.slice((found[0] as number) + oldText.length);
    // Write to the canonical path that was read, so a re-pointed symlink cannot redirect the edit.
    const written = await ctx.workspace.write(file.path, updated, {}, ctx.signal);
    const count = params.replaceAll ? found.length : 1;
    return ok(`Replaced ${count} occurrence${count === 1 ? '' : 's'} in ${written.path} (line${count === 1 ? '' : 's'} ${lines.slice(0, count).join(', ')})`, {
      path: written.path,
      replacements: count,
      lines: lines.slice(0, count),
      bytes: written.bytes,
    });
  });
}

export const editTool = defineTool({
  name: 'edit',
  description:
    'Replace exact text in a workspace file: oldText must match the file exactly (whitespace included) and exactly once, unless replaceAll is true. Read the file first and copy the text to change. For several changes across files, use apply_patch.',
  inputSchema: EditParams,
  executionMode: 'sequential',
  handler: runEdit,
});
