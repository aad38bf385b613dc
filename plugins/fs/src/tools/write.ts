import { z } from 'zod';
import { defineTool } from '../../../../sdk/plugin-api.js';
import { explained, ok, type FsToolContext } from './results.js';

export const WriteParams = z.object({
  path: z.string().min(1).describe('File to create or replace, relative to the workspace root. Missing parent directories are created.'),
  content: z.string().describe('The complete new content of the file.'),
  encoding: z.enum(['utf8', 'base64']).default('utf8').describe('"utf8" (default) for text; "base64" when content holds base64-encoded bytes.'),
});

export async function runWrite(params: z.output<typeof WriteParams>, ctx: FsToolContext) {
  return explained({ path: params.path }, async () => {
    // The backend writes a temp file and renames it: the old content stays whole until the new one is complete.
    const written = await ctx.workspace.write(params.path, params.content, { encoding: params.encoding, mkdirs: true }, ctx.signal);
    return ok(`Wrote ${written.bytes} bytes to ${written.path}`, { path: written.path, bytes: written.bytes });
  });
}

export const writeTool = defineTool({
  name: 'write',
  description:
    'Create or overwrite a file of the workspace with the given content (parent directories are created). The write is atomic: readers see the old file or the whole new one. To change part of a file, prefer edit or apply_patch.',
  inputSchema: WriteParams,
  executionMode: 'sequential',
  handler: runWrite,
});
