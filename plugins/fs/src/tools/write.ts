import * as z from 'zod';
import type { WorkspaceService } from '../../../../protocol/index.js';
import { defineTool } from '../../../../sdk/plugin-api.js';
import { workspaceErrorCodeOf } from '../../../../sdk/fs-bridge/index.js';
import { strictBase64 } from '../text/base64.js';
import { assertWellFormed } from '../text/utf8.js';
import { explained, ok, type FsToolContext } from './results.js';
import { assertWritable } from './rewrite-source.js';

export const WriteParams = z.object({
  path: z.string().min(1).describe('File to create or replace, relative to the workspace root. Missing parent directories are created.'),
  content: z.string().describe('The complete new content of the file.'),
  encoding: z.enum(['utf8', 'base64']).default('utf8').describe('"utf8" (default) for text; "base64" when content holds base64-encoded bytes.'),
});

/** A file that exists and has no write bit is left alone; a missing one may be created. */
async function assertReplaceable(workspace: WorkspaceService, path: string, signal: AbortSignal): Promise<void> {
  try {
    const stat = await workspace.stat(path, signal);
    if (stat.isFile) assertWritable(path, stat.mode);
  } catch (error) {
    if (workspaceErrorCodeOf(error) !== 'NOT_FOUND') throw error;
  }
}

export async function runWrite(params: z.output<typeof WriteParams>, ctx: FsToolContext) {
  return explained({ path: params.path }, async () => {
    // Validated before anything else, so a malformed payload never becomes bytes on disk.
    const content = params.encoding === 'base64' ? strictBase64(params.content, 'content') : params.content;
    if (params.encoding === 'utf8') assertWellFormed(content, 'content');
    await assertReplaceable(ctx.workspace, params.path, ctx.signal);
    // The backend writes a temp file and renames it: the old content stays whole until the new one is complete.
    const written = await ctx.workspace.write(params.path, content, { encoding: params.encoding, mkdirs: true }, ctx.signal);
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
