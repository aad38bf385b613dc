import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel, PincerConfig } from '../../kernel/index.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { CORE_TOOL_PROFILES } from '../../protocol/index.js';
import { FAST, pluginModule, scratchDir, startKernel } from './helpers.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const FAMILIES = ['message', 'nodes', 'gateway'];

function config(tools: PincerConfig['tools'], agents?: PincerConfig['agents']): PincerConfig {
  return {
    plugins: [
      ...bundledPluginConfigs(),
      { id: 'channel-outbox', module: pluginModule('channel-outbox'), settings: { dir: path.join(scratch.dir, 'outbox') }, timeouts: FAST },
      { id: 'nodes-local', module: pluginModule('nodes-local'), settings: { notificationsDir: path.join(scratch.dir, 'notes') }, timeouts: FAST },
    ],
    tools: { ...tools, gateway: { enabled: true } },
    ...(agents ? { agents } : {}),
  };
}

async function withKernel(cfg: PincerConfig, body: (kernel: Kernel) => Promise<void> | void): Promise<void> {
  const kernel = await startKernel(cfg);
  try {
    await body(kernel);
  } finally {
    await kernel.stop();
  }
}

const names = (kernel: Kernel, run = {}) => kernel.assembleTools(run).tools.map((tool) => tool.name);

describe('the message, nodes and gateway families under the policy layers', () => {
  // The reference release's `messaging` profile (test/fixtures/reference/catalog.json,
  // release 2026.9.6, `profiles.messaging.allow`), copied here as a literal so that a change to
  // the generated vocabulary cannot also change what this test expects.
  const REFERENCE_MESSAGING = [
    'secrets', 'sessions', 'sessions_list', 'sessions_history', 'sessions_search', 'conversations_list', 'conversations_send',
    'conversations_turn', 'sessions_send', 'sessions_spawn', 'sessions_yield', 'subagents', 'session_status', 'theme', 'message',
    'gateway', 'ask_user', 'bundle-mcp',
  ];

  it("gives the messaging profile exactly the reference's set: message and gateway, not nodes, no coding tools", async () => {
    expect(CORE_TOOL_PROFILES.get('messaging')!.allow).toEqual(REFERENCE_MESSAGING);
    await withKernel(config({ profile: 'messaging' }), (kernel) => {
      const present = names(kernel);
      // Of the reference list, only these two are served here (the bundled fs/shell tools are coding tools).
      expect(present.sort()).toEqual(['gateway', 'message']);
      const explained = kernel.assembleTools({}).explain('nodes');
      expect(explained).toMatchObject({ present: false, removal: { layer: 'profile', ruleKind: 'allow', configKey: 'tools.profile' } });
      expect(kernel.assembleTools({}).explain('read')).toMatchObject({ present: false, removal: { layer: 'profile' } });
    });
  });

  it('offers all three under the full profile, as core tools outside group:plugins', async () => {
    await withKernel(config({ profile: 'full', deny: ['group:plugins'] }), (kernel) => {
      expect(names(kernel)).toEqual(expect.arrayContaining(FAMILIES));
      for (const name of FAMILIES) expect(kernel.assembleTools({}).tools.find((tool) => tool.name === name)?.pluginId).toBeUndefined();
    });
  });

  it("applies the sandbox's default denies, and explain names the sandbox layer for each", async () => {
    const agents = { list: [{ id: 'main', sandbox: { mode: 'all' as const, backend: 'local' } }] };
    await withKernel(config({ profile: 'full' }, agents), (kernel) => {
      const toolSet = kernel.assembleTools({});
      expect(toolSet.sandbox.sandboxed).toBe(true);
      for (const name of FAMILIES) expect(toolSet.tools.map((tool) => tool.name)).not.toContain(name);
      // nodes and gateway are on the default deny list; message is not on the default allow list.
      expect(toolSet.explain('nodes')).toMatchObject({ present: false, removal: { layer: 'sandbox', ruleKind: 'deny', configKey: 'tools.sandbox.tools.deny' } });
      expect(toolSet.explain('gateway')).toMatchObject({ present: false, removal: { layer: 'sandbox', ruleKind: 'deny', configKey: 'tools.sandbox.tools.deny' } });
      expect(toolSet.explain('message')).toMatchObject({ present: false, removal: { layer: 'sandbox', ruleKind: 'allow', configKey: 'tools.sandbox.tools.allow' } });
    });
  });

  it('lifts a default deny only for the family the operator allows in the sandbox', async () => {
    const agents = { list: [{ id: 'main', sandbox: { mode: 'all' as const, backend: 'local' } }] };
    await withKernel(config({ profile: 'full', sandbox: { tools: { alsoAllow: ['nodes', 'message'] } } }, agents), (kernel) => {
      const present = names(kernel);
      expect(present).toEqual(expect.arrayContaining(['nodes', 'message']));
      expect(present).not.toContain('gateway');
    });
  });

  it('names the layer for a family removed by a global deny, and by an agent allow list of a group name', async () => {
    await withKernel(
      config({ profile: 'full', deny: ['gateway'] }, { list: [{ id: 'main', default: true }, { id: 'bot', tools: { allow: ['group:messaging'] } }] }),
      (kernel) => {
        const main = kernel.assembleTools({ agentId: 'main' });
        expect(main.explain('gateway')).toMatchObject({ removal: { layer: 'global', ruleKind: 'deny', configKey: 'tools.deny' } });
        expect(main.explain('message')).toMatchObject({ present: true });
        const bot = kernel.assembleTools({ agentId: 'bot' });
        expect(bot.tools.map((tool) => tool.name).filter((name) => FAMILIES.includes(name))).toEqual(['message']);
        expect(bot.explain('nodes')).toMatchObject({ removal: { layer: 'agent', ruleKind: 'allow' } });
      },
    );
  });

  it('keeps a family the policy removed from running: the call is answered with the layer, not executed', async () => {
    await withKernel(config({ profile: 'messaging' }), async (kernel) => {
      const result = await kernel.assembleTools({}).execute('nodes', { action: 'notify', body: 'should not arrive' });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result)).toContain('tools.profile');
    });
  });
});
