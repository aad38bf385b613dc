import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '../../kernel/index.js';
import { createPluginHost } from '../../kernel/host/index.js';
import { pincer } from '../cli/helpers/built-cli.js';
import { fixture, waitFor } from './helpers.js';

const text = (r: { content: Array<{ type: string; text?: string }> }): string => r.content.map((b) => b.text ?? '').join('');

describe('a plugin that takes tool names it does not own', () => {
  let kernel: Kernel | undefined;
  afterEach(async () => {
    await kernel?.stop();
    kernel = undefined;
  });

  const start = async (thief: Record<string, unknown> = {}) => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'pincer-names-ws-'));
    kernel = createKernel(
      {
        // The thief comes first in config order: order must not win anything.
        plugins: [{ id: 'aaa', module: fixture('steals-tool-names'), ...thief }, { id: 'victim', module: fixture('echo') }, { id: 'fs', module: fixture('plain') }],
        tools: { profile: 'full' },
      },
      { logger: () => undefined, cwd },
    );
    await kernel.start();
    return kernel;
  };

  it('is refused core tool names at the handshake, with an error naming both plugins', async () => {
    const k = await start();
    const aaa = k.plugins().find((p) => p.id === 'aaa')!;
    expect(aaa.state).toBe('ready');
    expect(aaa.rejectedTools.map((r) => [r.name, r.code])).toEqual([
      ['Read', 'CORE_TOOL_NOT_DESIGNATED'],
      ['bash', 'CORE_TOOL_NOT_DESIGNATED'],
      ['web_fetch', 'CORE_TOOL_NOT_DESIGNATED'],
    ]);
    expect(aaa.rejectedTools[0]!.reason).toBe('plugin "aaa" may not serve "Read": it is the core tool "read", served by plugin "fs" (an operator designates core tools with "coreTools" in the plugin entry)');
    expect(aaa.rejectedTools[1]!.reason).toMatch(/"bash": it is the core tool "exec", served by plugin "shell"/);
    expect(aaa.rejectedTools[2]!.reason).toMatch(/"web_fetch": it is the core tool "web_fetch", which no plugin is designated to serve/);
    const toolSet = k.assembleTools();
    expect(toolSet.tools.find((t) => t.name.toLowerCase() === 'read')).toBeUndefined(); // `fs` here is a stub without `read`
    expect(toolSet.warnings).toEqual(expect.arrayContaining([expect.stringContaining('refused tool: plugin "aaa" may not serve "Read"')]));
    await expect(k.host.invokeTool('aaa', 'Read', {})).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND', message: expect.stringContaining('was refused') });
  });

  it('cannot take another plugin’s tool with a later tool-list update: the owner keeps it', async () => {
    const k = await start();
    expect(text(await k.assembleTools().execute('steal', {}))).toBe('claimed');
    await waitFor(() => k.plugins().find((p) => p.id === 'aaa')!.rejectedTools.some((r) => r.name === 'echo'), 5_000, 'update screened');
    const refusal = k.plugins().find((p) => p.id === 'aaa')!.rejectedTools.find((r) => r.name === 'echo')!;
    expect(refusal).toMatchObject({ code: 'NAME_TAKEN', reason: 'plugin "aaa" may not serve "echo": plugin "victim" already serves a tool of that name, and keeps it' });
    const toolSet = k.assembleTools();
    expect(toolSet.tools.find((t) => t.name === 'echo')!.pluginId).toBe('victim');
    expect(text(await toolSet.execute('echo', { secret: 1 }))).toBe('{"secret":1}'); // the victim answered, with its own result
    expect(toolSet.warnings).toEqual(expect.arrayContaining([expect.stringContaining('"victim" already serves a tool of that name')]));
  });

  it('serves a core name only when the operator designates it in the plugin entry', async () => {
    const k = await start({ coreTools: ['web_fetch'] });
    const aaa = k.plugins().find((p) => p.id === 'aaa')!;
    expect(aaa.rejectedTools.map((r) => r.name)).toEqual(['Read', 'bash']);
    expect(k.assembleTools().tools.map((t) => t.name)).toContain('web_fetch');
  });
});

describe('two plugins declaring one tool name', () => {
  const twoEchoes = (agents: { id: string; plugins: string[] }[]) => ({
    plugins: [{ id: 'e1', module: fixture('echo') }, { id: 'e2', module: fixture('echo') }],
    tools: { profile: 'full' as const },
    agents: { list: agents.map((a) => ({ ...a, workspace: mkdtempSync(path.join(tmpdir(), 'pincer-names-ws-')) })) },
  });

  it('lets each serve it to the agents that enable only one of them', async () => {
    const kernel = createKernel(twoEchoes([{ id: 'one', plugins: ['e1'] }, { id: 'two', plugins: ['e2'] }]), { logger: () => undefined, cwd: mkdtempSync(path.join(tmpdir(), 'pincer-names-')) });
    await kernel.start();
    try {
      for (const [agentId, pluginId] of [['one', 'e1'], ['two', 'e2']] as const) {
        const toolSet = kernel.assembleTools({ agentId });
        expect(toolSet.tools.find((t) => t.name === 'echo')?.pluginId).toBe(pluginId);
        expect(text(await toolSet.execute('echo', { n: 1 }))).toBe('{"n":1}');
      }
      expect(kernel.plugins().flatMap((p) => p.rejectedTools).filter((r) => r.code === 'NAME_TAKEN')).toEqual([]);
    } finally {
      await kernel.stop();
    }
  });

  it('gives an agent that enables both the one listed first in the config, whichever started first, and says so', async () => {
    const kernel = createKernel(twoEchoes([{ id: 'both', plugins: ['e2', 'e1'] }]), { logger: () => undefined, cwd: mkdtempSync(path.join(tmpdir(), 'pincer-names-')) });
    await kernel.start();
    try {
      const toolSet = kernel.assembleTools({ agentId: 'both' });
      expect(toolSet.tools.filter((t) => t.name === 'echo').map((t) => t.pluginId)).toEqual(['e1']);
      expect(toolSet.warnings).toEqual(expect.arrayContaining([expect.stringContaining('plugin "e2" contributes "echo", which plugin "e1" already serves')]));
    } finally {
      await kernel.stop();
    }
  });
});

describe('core tool designation in the config', () => {
  it('refuses two plugins designated for the same core tool, and names that are not core tools', () => {
    const plugins = (a: string[], b: string[]) => [
      { id: 'one', module: '/x.js', coreTools: a },
      { id: 'two', module: '/y.js', coreTools: b },
    ];
    expect(() => createPluginHost({ plugins: plugins(['exec'], ['Bash']), logger: () => undefined })).toThrow('plugins[1] ("two").coreTools: core tool "exec" is already designated to plugin "one"');
    expect(() => createPluginHost({ plugins: plugins(['word_count'], []), logger: () => undefined })).toThrow('plugins[0] ("one").coreTools: "word_count" is not a core tool name');
  });
});

describe('the operator’s view of refused tools', () => {
  it('shows each refusal with its reason in `pincer tools` and `pincer plugins`', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pincer-names-cli-'));
    const config = { plugins: [{ id: 'aaa', module: fixture('steals-tool-names') }], tools: { profile: 'full' }, agents: { list: [{ id: 'main', workspace: dir }] } };
    writeFileSync(path.join(dir, 'pincer.config.json'), JSON.stringify(config));
    const tools = await pincer(['tools'], { cwd: dir, env: { PINCER_STATE_DIR: dir } });
    expect(tools.stdout + tools.stderr).toContain('refused tool: plugin "aaa" may not serve "Read": it is the core tool "read", served by plugin "fs"');
    const plugins = await pincer(['plugins'], { cwd: dir, env: { PINCER_STATE_DIR: dir } });
    expect(plugins.stdout).toMatch(/refused tool plugin "aaa" may not serve "web_fetch"/);
    const json = JSON.parse((await pincer(['plugins', '--json'], { cwd: dir, env: { PINCER_STATE_DIR: dir } })).stdout) as { plugins: Array<{ rejectedTools: Array<{ code: string }> }> };
    expect(json.plugins[0]!.rejectedTools.map((r) => r.code)).toEqual(['CORE_TOOL_NOT_DESIGNATED', 'CORE_TOOL_NOT_DESIGNATED', 'CORE_TOOL_NOT_DESIGNATED']);
  });
});
