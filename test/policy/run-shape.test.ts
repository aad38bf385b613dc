import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { createKernel, type Kernel, type PincerConfig } from '../../kernel/index.js';
import { resolveModelRef } from '../../kernel/policy/index.js';

const text = (result: { content: { type: string; text?: string }[] }) => result.content.map((block) => block.text ?? '').join('');

let dir: string;
let kernel: Kernel;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pincer-run-shape-'));
  const config: PincerConfig = {
    plugins: bundledPluginConfigs(),
    tools: {
      profile: 'coding',
      sandbox: { tools: { deny: ['exec'] } },
      byProvider: { 'openai/gpt-4o': { deny: ['write'] }, google: { deny: ['edit'] } },
      toolsBySender: { 'id:boss': { deny: ['ls'] } },
    },
    groups: { team: { tools: { deny: ['process'] } } },
    agents: { defaults: { sandbox: { mode: 'non-main' } }, list: [{ id: 'main', workspace: dir }] },
  };
  kernel = createKernel(config, { logger: () => undefined });
  await kernel.start();
});
afterAll(async () => {
  await kernel.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('a run that names a group without a session key', () => {
  it('is the group\'s session, so non-main sandboxes it and the sandbox tool layer applies', async () => {
    const toolSet = kernel.assembleTools({ groupId: 'team' });
    expect(toolSet.run.sessionKey).toBe('agent:main:group:team');
    expect(toolSet.sandbox).toMatchObject({ mode: 'non-main', sandboxed: true });
    expect(toolSet.tools.map((t) => t.name)).not.toContain('exec');
    expect(toolSet.explain('exec')).toMatchObject({ present: false, removal: { layer: 'sandbox', configKey: 'tools.sandbox.tools.deny' } });
    const marker = path.join(dir, 'pwned');
    const result = await toolSet.execute('exec', { command: `touch ${marker}` });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/sandbox/);
    expect(existsSync(marker)).toBe(false);
  });

  it('is the same session for a sender in the group and for the id in another case', () => {
    expect(kernel.assembleTools({ groupId: ' TEAM ', sender: { id: 'u1' } }).run.sessionKey).toBe('agent:main:group:team');
  });

  it('keeps an explicit session key, and a run without a group stays in the main session', () => {
    expect(kernel.assembleTools({ groupId: 'team', sessionKey: 'agent:main:main' }).sandbox.sandboxed).toBe(false);
    const main = kernel.assembleTools({});
    expect(main.run.sessionKey).toBe('agent:main:main');
    expect(main.tools.map((t) => t.name)).toContain('exec');
  });
});

describe('providers, models and ids', () => {
  it('takes the provider from a qualified model id, and strips a provider the model repeats', () => {
    expect(resolveModelRef(undefined, 'openai/gpt-4o')).toEqual({ provider: 'openai', model: 'gpt-4o' });
    expect(resolveModelRef('OpenAI', 'openai/gpt-4o')).toEqual({ provider: 'OpenAI', model: 'gpt-4o' });
    expect(resolveModelRef('openrouter', 'anthropic/claude')).toEqual({ provider: 'openrouter', model: 'anthropic/claude' });
    expect(resolveModelRef(undefined, 'gpt-4o')).toEqual({ model: 'gpt-4o' });
    for (const run of [{ model: 'openai/gpt-4o' }, { provider: 'OpenAI', model: 'openai/GPT-4o' }, { provider: ' openai ', model: 'gpt-4o' }]) {
      const toolSet = kernel.assembleTools(run);
      expect(toolSet.explain('write'), JSON.stringify(run)).toMatchObject({ present: false, removal: { configKey: 'tools.byProvider.openai/gpt-4o.deny' } });
      expect(toolSet.warnings).toEqual([]);
    }
  });

  it('matches agents, groups, providers and senders trimmed and case-insensitively', () => {
    const toolSet = kernel.assembleTools({ agentId: 'MAIN', groupId: 'Team', provider: 'Google', sender: { id: 'BOSS' } });
    expect(toolSet.run.agentId).toBe('main');
    const removed = Object.fromEntries(toolSet.removed.map((r) => [r.tool, r.configKey]));
    expect(removed).toMatchObject({ edit: 'tools.byProvider.google.deny', process: 'groups.team.tools.deny', ls: 'tools.toolsBySender.id:boss.deny' });
  });

  it('warns about a group, provider, model or sender that matches none of the configured rules', () => {
    const warnings = kernel.assembleTools({ groupId: 'tema', provider: 'anthropic', sender: { id: 'stranger' } }).warnings;
    expect(warnings).toEqual([
      expect.stringMatching(/^run: group "tema" matches no entry under groups \(configured: team;/),
      expect.stringMatching(/^run: provider "anthropic" matches no byProvider entry \(configured: openai\/gpt-4o, google\)/),
      expect.stringMatching(/^run: sender id "stranger" matches no toolsBySender key in scope \(id:boss\)/),
    ]);
    expect(kernel.assembleTools({ model: 'gpt-4o' }).warnings).toEqual([expect.stringMatching(/^run: model "gpt-4o" names no provider, so no byProvider entry applies/)]);
  });

  it('warns about an agent id when no agents are listed, and refuses one when some are', async () => {
    const bare = createKernel({ plugins: bundledPluginConfigs() }, { logger: () => undefined });
    await bare.start();
    try {
      expect(bare.assembleTools({ agentId: 'suport' }).warnings).toEqual([expect.stringMatching(/^run: agent "suport" is not configured \(agents\.list is empty\)/)]);
      expect(bare.assembleTools({ agentId: 'main' }).warnings).toEqual([]);
    } finally {
      await bare.stop();
    }
    expect(() => kernel.assembleTools({ agentId: 'suport' })).toThrow(/no agent "suport" in agents\.list \(configured: main\)/);
  });
});
