/**
 * The plugin's definition, kept apart from `main.ts` so tests import it without serving.
 */
import { z } from 'zod';
import { definePlugin, defineTool } from 'pincer/sdk';

const wordCount = defineTool({
  name: 'word_count',
  description: 'Counts the words of a text file in the workspace.',
  family: 'text',
  executionMode: 'parallel',
  inputSchema: z.object({ path: z.string().describe('Workspace path of the file') }),
  async handler({ path }, ctx) {
    const file = await ctx.workspace.read(path, { maxBytes: 1_000_000 });
    const words = file.content.split(/\s+/).filter(Boolean).length;
    return { content: [{ type: 'text', text: `${path}: ${words} words` }], details: { words } };
  },
});

const shout = defineTool({
  name: 'shout',
  description: 'Upper-cases a text, reporting progress per line.',
  family: 'text',
  inputSchema: z.object({ text: z.string() }),
  handler({ text }, ctx) {
    const lines = text.split('\n');
    const out = lines.map((line, i) => {
      ctx.signal.throwIfAborted(); // stop promptly when the kernel cancels
      ctx.progress({ progress: i + 1, total: lines.length });
      return line.toUpperCase() + String(ctx.settings.suffix ?? '');
    });
    return out.join('\n');
  },
});

export const plugin = definePlugin({
  id: 'word-tools',
  version: '0.1.0',
  tools: [wordCount, shout],
  // The sandbox it runs in (docs/confinement.md): files come through ctx.workspace, so no paths,
  // no network, no child processes.
  confinement: { filesystem: [], network: 'none', spawn: false },
  hooks: {
    // A policy hook: refuse `exec` calls that pipe a download into a shell.
    before_tool_call: {
      priority: 50,
      tools: ['exec'],
      handler: (event) => {
        const command = String(event.params.command ?? '');
        return /curl[^|]*\|\s*(ba)?sh/.test(command) ? { block: true, blockReason: 'piping a download into a shell is not allowed' } : null;
      },
    },
  },
});
