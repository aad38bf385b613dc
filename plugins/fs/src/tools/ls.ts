import * as z from 'zod';
import { defineTool } from '../../../../sdk/plugin-api.js';
import type { WorkspaceDirEntry } from '../../../../protocol/index.js';
import { explained, ok, type FsToolContext } from './results.js';

export const LsParams = z.object({
  path: z.string().default('.').describe('Directory to list, relative to the workspace root (default: the root).'),
  all: z.boolean().default(false).describe('Include entries whose name starts with a dot.'),
  limit: z.number().int().min(1).max(5000).default(500).describe('Most entries to show (default 500).'),
});

/** `name/` for a directory, `name@` for anything that is neither file nor directory (symlink, socket). */
function formatEntry(entry: WorkspaceDirEntry): string {
  if (entry.isDirectory === true) return `${entry.name}/`;
  if (entry.isFile === true) return entry.size === undefined ? entry.name : `${entry.name}  (${entry.size} B)`;
  if (entry.isFile === false && entry.isDirectory === false) return `${entry.name}@`;
  return entry.name; // type unknown: shown plainly, never guessed
}

export async function runLs(params: z.output<typeof LsParams>, ctx: FsToolContext) {
  return explained({ path: params.path }, async () => {
    const entries = await ctx.workspace.readDirectory(params.path, ctx.signal);
    const visible = params.all ? entries : entries.filter((e) => !e.name.startsWith('.'));
    // Directories first, then by name: the order people scan a listing in.
    visible.sort((a, b) => Number(b.isDirectory === true) - Number(a.isDirectory === true) || a.name.localeCompare(b.name));
    const shown = visible.slice(0, params.limit);
    const lines = shown.map(formatEntry);
    if (visible.length > shown.length) lines.push(`… ${visible.length - shown.length} more entries (raise limit to see them)`);
    const hidden = entries.length - visible.length;
    const text = lines.length === 0 ? `(empty directory${hidden > 0 ? `; ${hidden} hidden entries, pass all: true` : ''})` : lines.join('\n');
    return ok(text, { path: params.path, entries: shown, total: visible.length, truncated: visible.length > shown.length, hidden });
  });
}

export const lsTool = defineTool({
  name: 'ls',
  description:
    'List a directory of the workspace. Directories end with "/", symbolic links and special files with "@", files show their size. Hidden (dot) entries are skipped unless all is true.',
  inputSchema: LsParams,
  executionMode: 'parallel',
  handler: runLs,
});
