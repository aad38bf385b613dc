import { describe, expect, it } from 'vitest';
import { scratchCwd } from '../helpers/scratch-cwd.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { lintPolicyConfig, pluginToolsFromManifests } from '../../kernel/config/lint.js';
import { checkConfig, parseConfig } from '../../kernel/config/validate.js';
import { createKernel } from '../../kernel/index.js';
import { applyPolicyPipeline, buildPolicySteps, createPolicyEngine } from '../../kernel/policy/index.js';

const tools = ['read', 'write', 'exec', 'process'].map((name) => ({ name }));
const names = (list: { name: string }[]) => list.map((t) => t.name);

function assemble(config: unknown) {
  const cfg = parseConfig(config);
  const agent = cfg.agents?.list?.[0];
  return applyPolicyPipeline(tools, buildPolicySteps({ tools: cfg.tools, agentId: agent?.id, agentTools: agent?.tools, groups: cfg.groups, sandboxed: false, run: { groupId: 'g' } }));
}

describe('a deny entry that matches no known tool, group or plugin', () => {
  it('fences nothing, and the assembly says so with the config key, the layer and the likely fix', () => {
    const result = assemble({ tools: { deny: ['exce', 'group:runtme'] } });
    expect(names(result.tools)).toContain('exec');
    expect(result.warnings).toEqual([
      'tools: tools.deny (layer global) names entries that match no known tool, group or plugin (exce, group:runtme), so they deny nothing. Did you mean: exce → exec, group:runtme → group:runtime?',
    ]);
  });

  it('is found at every layer, each under its own key', () => {
    const result = assemble({ groups: { g: { tools: { deny: ['wirte'] } } }, agents: { list: [{ id: 'main', tools: { deny: ['proces'] } }] } });
    expect(result.warnings.map((w) => w.split(' names')[0])).toEqual(['tools: agents.main.tools.deny (layer agent)', 'tools: groups.g.tools.deny (layer group)']);
  });

  it('is no typo when it names a core tool this runtime lacks, a channel, a glob that matches the catalog, or a plugin of another agent', () => {
    const config = parseConfig({ plugins: [{ id: 'audit', module: 'a.js' }], tools: { deny: ['gateway', 'telegram', 'web_*', 'audit', 'audit_log', 'bash'] } });
    const engine = createPolicyEngine(config);
    const vocabulary = Object.freeze({ plugins: new Set(['audit']), tools: new Set(['audit_log']) });
    expect(engine.evaluate(tools, { agentId: 'main' }, false, { vocabulary }).warnings).toEqual([]);
  });

  it('is reported by config check with its exact config path', () => {
    const result = checkConfig({
      tools: { deny: ['exec', 'exce'], byProvider: { openai: { deny: ['group:runtme'] } } },
      agents: { list: [{ id: 'main', tools: { sandbox: { tools: { deny: ['browsr'] } } } }] },
    });
    expect(result.ok).toBe(true);
    expect(result.warnings).toEqual([
      { path: 'tools.deny[1]', message: '"exce" matches no known tool, group or plugin, so it denies nothing; did you mean "exec"?' },
      { path: 'tools.byProvider.openai.deny[0]', message: expect.stringContaining('did you mean "group:runtime"') },
      { path: 'agents.list[0].tools.sandbox.tools.deny[0]', message: expect.stringContaining('did you mean "browser"') },
    ]);
  });

  it('is reported without the plugins\' tool lists only when it cannot be one of their tools', () => {
    const config = parseConfig({ plugins: [{ id: 'web', module: 'w.js' }], tools: { deny: ['fetch_page', 'group:webb', 'exce'] } });
    expect(lintPolicyConfig(config).map((issue) => issue.path)).toEqual(['tools.deny[1]', 'tools.deny[2]']);
    const known = lintPolicyConfig(config, { pluginTools: { web: ['fetch_url'] } });
    expect(known.map((issue) => issue.path)).toEqual(['tools.deny[0]', 'tools.deny[1]', 'tools.deny[2]']);
  });

  it('reads the tool lists from the bundled plugins\' manifests', () => {
    const config = { plugins: bundledPluginConfigs() };
    expect(pluginToolsFromManifests(config)).toMatchObject({ fs: expect.arrayContaining(['read', 'apply_patch']), shell: expect.arrayContaining(['exec', 'process']) });
  });

  it('warns through the kernel at assembly, in every tool set, and reaches the log once', async () => {
    const logged: string[] = [];
    const kernel = createKernel({ plugins: bundledPluginConfigs(), tools: { profile: 'coding', deny: ['exce'] } }, { cwd: scratchCwd(), logger: (r) => r.level === 'warn' && logged.push(r.message) });
    await kernel.start();
    try {
      const first = kernel.assembleTools();
      const second = kernel.assembleTools();
      expect(first.tools.map((t) => t.name)).toContain('exec');
      expect(first.warnings).toEqual([expect.stringMatching(/^tools: tools\.deny \(layer global\) names entries that match no known tool.*\(exce\).*exce → exec/)]);
      expect(second.warnings).toEqual(first.warnings);
      expect(logged.filter((m) => m.includes('exce'))).toHaveLength(1);
    } finally {
      await kernel.stop();
    }
  });
});
