import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { statSync } from 'node:fs';
import { definePlugin, defineTool, pluginDataDir, WorkspaceError } from '../../sdk/plugin-api.js';
import { createMemoryWorkspace, createPluginTestHarness } from '../../sdk/testing/index.js';

const plugin = definePlugin({
  id: 'demo',
  version: '1.2.3',
  tools: [
    defineTool({
      name: 'greet',
      description: 'Says hello',
      inputSchema: z.object({ who: z.string() }),
      handler: ({ who }, ctx) => {
        ctx.progress({ message: 'greeting' });
        ctx.log.info('greeted', { who });
        return `hello ${who} (${String(ctx.settings.suffix ?? '')})`;
      },
    }),
    defineTool({
      name: 'cat',
      description: 'Reads a file from the workspace',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
      handler: async (params: { path: string }, ctx) => (await ctx.workspace.read(params.path)).content,
    }),
    defineTool({
      name: 'wait',
      description: 'Waits until cancelled',
      inputSchema: {},
      handler: (_p, ctx) =>
        new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true })),
    }),
  ],
  hooks: {
    before_tool_call: { priority: 5, handler: (e) => (e.toolName === 'rm' ? { block: true, blockReason: 'no rm' } : undefined) },
  },
});

describe('the in-memory plugin test harness', () => {
  it('completes the handshake and reports the plugin contributions with JSON Schema from zod', async () => {
    const h = await createPluginTestHarness(plugin);
    expect(h.handshake.plugin).toEqual({ id: 'demo', version: '1.2.3' });
    expect(h.handshake.protocolVersion).toBe(1);
    const greet = h.handshake.contributes.tools.find((t) => t.name === 'greet');
    expect(greet?.family).toBe('demo');
    expect(greet?.inputSchema).toMatchObject({ type: 'object', properties: { who: { type: 'string' } } });
    expect(h.handshake.contributes.hooks).toEqual([{ name: 'before_tool_call', priority: 5 }]);
    await h.close();
  });

  it('calls a tool with settings, progress and logs', async () => {
    const h = await createPluginTestHarness(plugin, { settings: { suffix: '!' } });
    const progress: unknown[] = [];
    const result = await h.callTool('greet', { who: 'ada' }, { onProgress: (p) => progress.push(p) });
    expect(result.content).toEqual([{ type: 'text', text: 'hello ada (!)' }]);
    expect(progress).toEqual([{ message: 'greeting' }]);
    await new Promise((r) => setTimeout(r, 10));
    expect(h.logs).toEqual([{ level: 'info', message: 'greeted', data: { who: 'ada' } }]);
    await h.close();
  });

  it('answers arguments that fail the zod schema with an INVALID_PARAMS error result the model can read', async () => {
    const h = await createPluginTestHarness(plugin);
    const invalid = await h.callTool('greet', { who: 3 });
    expect(invalid).toMatchObject({ isError: true, details: { error: { code: 'INVALID_PARAMS' }, issues: [{ path: 'who' }] } });
    expect(invalid.content[0]).toEqual({ type: 'text', text: 'Error [INVALID_PARAMS]: Invalid arguments for greet: who: Invalid input: expected string, received number.\nHint: Call greet again with arguments that match its parameter schema.' });
    await expect(h.callTool('nope')).rejects.toMatchObject({ code: -32010 });
    await h.close();
  });

  it('serves workspace requests from the harness workspace and maps workspace errors', async () => {
    const h = await createPluginTestHarness(plugin, { workspace: createMemoryWorkspace({ 'a.txt': 'A' }) });
    expect((await h.callTool('cat', { path: 'a.txt' })).content[0]).toEqual({ type: 'text', text: 'A' });
    await expect(h.callTool('cat', { path: 'missing' })).rejects.toMatchObject({ code: -32008, data: { code: 'NOT_FOUND' } });
    await h.close();
  });

  it('aborts the handler signal when the caller cancels', async () => {
    const h = await createPluginTestHarness(plugin);
    const controller = new AbortController();
    const call = h.callTool('wait', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    await expect(call).rejects.toMatchObject({ code: -32011 });
    await h.close();
  });

  it('runs the before_tool_call hook', async () => {
    const h = await createPluginTestHarness(plugin);
    expect(await h.beforeToolCall({ toolName: 'rm', params: {} })).toEqual({ block: true, blockReason: 'no rm' });
    expect(await h.beforeToolCall({ toolName: 'ls', params: {} })).toBeNull();
    await h.close();
  });

  it('refuses a kernel with no common protocol version, naming both sides', async () => {
    await expect(createPluginTestHarness(plugin, { protocolVersions: [7] })).rejects.toMatchObject({
      code: -32002,
      message: expect.stringMatching(/speaks protocol version\(s\) \[1\]; this kernel speaks \[7\]/),
    });
  });

  it('keeps the WorkspaceError class usable by plugin code', () => {
    expect(new WorkspaceError('NOT_FOUND', 'x').data).toEqual({ code: 'NOT_FOUND', path: undefined });
  });
});

describe('pluginDataDir()', () => {
  it('falls back to one private temp directory when no kernel gave one (tests, hand starts)', () => {
    const saved = process.env.PINCER_PLUGIN_DATA_DIR;
    delete process.env.PINCER_PLUGIN_DATA_DIR;
    try {
      const dir = pluginDataDir();
      expect(dir).toBe(pluginDataDir());
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      process.env.PINCER_PLUGIN_DATA_DIR = '/given/by/kernel';
      expect(pluginDataDir()).toBe('/given/by/kernel');
    } finally {
      if (saved === undefined) delete process.env.PINCER_PLUGIN_DATA_DIR;
      else process.env.PINCER_PLUGIN_DATA_DIR = saved;
    }
  });
});
