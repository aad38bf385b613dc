import * as z from 'zod';
import { defineTool } from '../../../../sdk/plugin-api.js';
import { assertWellFormed } from '../text/utf8.js';
import { findMatches, replaceMatches } from './edit-match.js';
import { explained, FsToolError, ok, type FsToolContext } from './results.js';
import { readForRewrite } from './rewrite-source.js';
import { lineNumberAt } from './text.js';

export const EditParams = z.object({
  path: z.string().min(1).describe('File to edit, relative to the workspace root.'),
  oldText: z.string().min(1).describe('Exact text to replace, including whitespace and indentation. It must occur exactly once unless replaceAll is true.'),
  newText: z.string().describe('Text to put in its place (may be empty to delete oldText).'),
  replaceAll: z.boolean().default(false).describe('Replace every occurrence instead of requiring exactly one.'),
});

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
    assertWellFormed(params.oldText, 'oldText');
    assertWellFormed(params.newText, 'newText');
    const file = await readForRewrite(ctx.workspace, params.path, ctx.signal);
    const found = findMatches(file.text, params.oldText);
    if (found.length === 0) throw new FsToolError('NO_MATCH', `oldText was not found in ${params.path}`, nearMiss(file.text, params.oldText));
    const lines = found.map((m) => lineNumberAt(file.text, m.index));
    if (found.length > 1 && !params.replaceAll) {
      throw new FsToolError(
        'AMBIGUOUS_MATCH',
        `oldText occurs ${found.length} times in ${params.path} (lines ${lines.slice(0, 10).join(', ')}${lines.length > 10 ? ', …' : ''})`,
        'Include more surrounding lines in oldText so it matches once, or pass replaceAll: true.',
      );
    }
    const updated = replaceMatches(file.text, found, params.newText);
    // Only if nobody changed the file since it was read: a concurrent writer's work is never overwritten.
    const written = await ctx.workspace.write(file.target, updated, { expectVersion: file.version }, ctx.signal);
    const count = found.length;
    const shown = `${lines.slice(0, 20).join(', ')}${count > 20 ? ', …' : ''}`;
    return ok(`Replaced ${count} occurrence${count === 1 ? '' : 's'} in ${written.path} (line${count === 1 ? '' : 's'} ${shown})`, {
      path: written.path,
      replacements: count,
      lines,
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
