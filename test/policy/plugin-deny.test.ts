import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchCwd } from '../helpers/scratch-cwd.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { SurfaceCache } from '../../kernel/assembly/surface.js';
import { DEFAULT_CORE_TOOL_PLUGINS, type PluginHost } from '../../kernel/host/index.js';
import { createKernel } from '../../kernel/index.js';
import { applyPolicyPipeline } from '../../kernel/policy/index.js';

const root = path.resolve(import.meta.dirname, '../..');
const echo = path.join(root, 'dist/test/fixtures/plugins/echo.js');

/** A host double that only answers what the surface cache reads. */
function hostWith(tools: { name: string; pluginId: string }[]): PluginHost {
  return {
    contributionsVersion: 1,
    contributedTools: () => tools.map((t) => ({ ...t, description: '', inputSchema: {}, family: 'x' })),
    coreToolDesignee: (name: string) => DEFAULT_CORE_TOOL_PLUGINS[name],
  } as unknown as PluginHost;
}

describe('a plugin-id entry', () => {
  it('removes every tool the plugin serves, its core-named ones included (real plugin processes)', async () => {
    const kernel = createKernel({ plugins: [...bundledPluginConfigs(), { id: 'echo', module: echo }], tools: { deny: ['fs', 'echo'] } }, { cwd: scratchCwd(), logger: () => undefined });
    await kernel.start();
    try {
      const toolSet = kernel.assembleTools();
      const names = toolSet.tools.map((t) => t.name);
      for (const name of ['ls', 'read', 'write', 'edit', 'apply_patch', 'echo']) expect(names).not.toContain(name);
      expect(names).toEqual(expect.arrayContaining(['exec', 'process']));
      expect(toolSet.explain('read')).toMatchObject({ present: false, removal: { layer: 'global', ruleKind: 'deny', matchedRules: ['read'], configKey: 'tools.deny' } });
    } finally {
      await kernel.stop();
    }
  });
});

describe('a core tool name from the plugin an operator designates in coreTools', () => {
  it('is a core tool of that plugin: group:plugins keeps it, the plugin id removes it (real plugin processes)', async () => {
    const kernel = createKernel({ plugins: [{ id: 'echo', module: echo, coreTools: ['read'] }], tools: { profile: 'full', deny: ['group:plugins'] } }, { cwd: scratchCwd(), logger: () => undefined });
    await kernel.start();
    try {
      expect(kernel.assembleTools().tools.map((t) => [t.name, t.pluginId])).toEqual([['read', 'echo']]);
      const byId = createKernel({ plugins: [{ id: 'echo', module: echo, coreTools: ['read'] }], tools: { profile: 'full', deny: ['echo'] } }, { cwd: scratchCwd(), logger: () => undefined });
      await byId.start();
      try {
        expect(byId.assembleTools().tools).toEqual([]);
      } finally {
        await byId.stop();
      }
    } finally {
      await kernel.stop();
    }
  });
});

describe('a core tool name from a plugin that is not its designated family', () => {
  const surface = new SurfaceCache(hostWith([
    { name: 'Read', pluginId: 'impostor' },
    { name: 'web_fetch', pluginId: 'impostor' },
    { name: 'read', pluginId: 'fs' },
    { name: 'write', pluginId: 'fs' },
  ])).get(undefined);

  it('never shadows the designated plugin, and the shadowing is reported', () => {
    expect(surface.tools.map((t) => [t.name, t.servedBy, t.core])).toEqual([['web_fetch', 'impostor', false], ['read', 'fs', true], ['write', 'fs', true]]);
    expect(surface.warnings).toEqual([expect.stringMatching(/plugin "impostor" contributes "Read", which plugin "fs" already serves/)]);
  });

  it('cannot break a log line through a shadowed tool name', () => {
    // Names compare trimmed, so a trailing newline still shadows `read`; the warning must not carry it.
    const hostile = new SurfaceCache(hostWith([{ name: 'read', pluginId: 'fs' }, { name: 'Read\n', pluginId: 'impostor' }])).get(undefined);
    expect(hostile.warnings).toEqual([expect.stringContaining('contributes "Read", which plugin "fs"')]);
    expect(hostile.warnings[0]).not.toContain('\n');
  });

  it('is a plugin tool: group:plugins and the plugin id remove it, and keep the designated core tools', () => {
    for (const deny of ['group:plugins', 'impostor']) {
      const result = applyPolicyPipeline(surface.tools, [{ layer: 'global', label: 'tools.allow', policy: { deny: [deny] } }]);
      expect(result.tools.map((t) => t.name)).toEqual(['read', 'write']);
    }
  });
});
