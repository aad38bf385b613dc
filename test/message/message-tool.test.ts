import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel, PincerConfig } from '../../kernel/index.js';
import { FAST, errorCode, fixtureModule, jsonLines, pluginModule, scratchDir, startKernel, textOf } from './helpers.js';

const scratch = scratchDir();
const outboxDir = path.join(scratch.dir, 'outbox');
const outboxFile = path.join(outboxDir, 'outbox.jsonl');
const flakyLog = path.join(scratch.dir, 'flaky.log');

function config(extra: Partial<PincerConfig> = {}): PincerConfig {
  return {
    plugins: [
      { id: 'channel-outbox', module: pluginModule('channel-outbox'), settings: { dir: outboxDir }, timeouts: FAST },
      { id: 'flaky-channel', module: fixtureModule('flaky-channel'), settings: { log: flakyLog }, timeouts: FAST },
    ],
    tools: { profile: 'messaging' },
    ...extra,
  };
}

const outboxLines = () => (existsSync(outboxFile) ? jsonLines(outboxFile) : []);
const flakyRequests = () => (existsSync(flakyLog) ? readFileSync(flakyLog, 'utf8').split('\n').filter(Boolean) : []);

afterAll(() => scratch.cleanup());

describe('the message tool: one session, its own channel', () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await startKernel(config());
  });
  afterAll(() => kernel.stop());

  it("shows a session only its own channel's actions", () => {
    const flaky = kernel.assembleTools({ channel: 'flaky' }).tools.find((tool) => tool.name === 'message');
    const outbox = kernel.assembleTools({ channel: 'outbox' }).tools.find((tool) => tool.name === 'message');
    const actions = (tool: typeof flaky) => ((tool?.inputSchema.properties as Record<string, { enum?: string[] }>).action.enum);
    expect(actions(flaky)).toEqual(['send', 'react']);
    expect(actions(outbox)).toEqual(['send', 'broadcast', 'reply', 'thread-reply', 'react', 'edit', 'delete', 'read']);
    // No other channel can even be named while cross-session sends are off.
    expect(flaky?.inputSchema.properties).not.toHaveProperty('channel');
    expect(flaky?.description).toContain('"flaky"');
  });

  it('delivers a send to the session channel and labels it with the source session', async () => {
    const result = await kernel.assembleTools({ channel: 'outbox', sessionKey: 'agent:main:chat-1' }).execute('message', { action: 'send', to: 'ops', message: 'build is green' }, { toolCallId: 'c-1' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toMatch(/^Delivered: "send" on channel "outbox" \(message id \d+\)\./);
    const [line] = outboxLines().slice(-1);
    expect(line).toMatchObject({ channel: 'outbox', action: 'send', to: 'ops', message: 'build is green', source: { sessionKey: 'agent:main:chat-1', agentId: 'main', channel: 'outbox', crossSession: false } });
  });

  it("reads back only the session's own messages from the shared outbox", async () => {
    await kernel.assembleTools({ channel: 'outbox', sessionKey: 'agent:main:other' }).execute('message', { action: 'send', to: 'ops', message: 'not yours' });
    const read = await kernel.assembleTools({ channel: 'outbox', sessionKey: 'agent:main:chat-1' }).execute('message', { action: 'read' });
    const messages = (read.details?.data as { messages: { message: string }[] }).messages;
    expect(messages.map((m) => m.message)).toEqual(['build is green']);
  });

  it('refuses an action the channel lacks, listing what it supports, and sends nothing', async () => {
    const before = flakyRequests().length;
    const result = await kernel.assembleTools({ channel: 'flaky' }).execute('message', { action: 'delete', messageId: '7' });
    expect(result.isError).toBe(true);
    expect(errorCode(result)).toBe('UNSUPPORTED_ACTION');
    expect(textOf(result)).toContain('channel "flaky" does not support "delete"');
    expect(textOf(result)).toContain('supports: send, react');
    expect(flakyRequests()).toHaveLength(before);
  });

  it('refuses a name outside the closed vocabulary the same way', async () => {
    const result = await kernel.assembleTools({ channel: 'flaky' }).execute('message', { action: 'teleport' });
    expect(errorCode(result)).toBe('UNKNOWN_ACTION');
    expect(textOf(result)).toContain('supports: send, react');
  });

  it('refuses a send on another channel: cross-session sends are off by default', async () => {
    const before = outboxLines().length;
    const result = await kernel.assembleTools({ channel: 'flaky' }).execute('message', { action: 'send', channel: 'outbox', message: 'psst' });
    expect(errorCode(result)).toBe('CROSS_SESSION_DENIED');
    expect(textOf(result)).toContain('Nothing was sent');
    expect(outboxLines()).toHaveLength(before);
  });

  it('refuses a 10 MB body before any channel sees it', async () => {
    const before = { outbox: outboxLines().length, flaky: flakyRequests().length };
    const huge = 'x'.repeat(10 * 1024 * 1024);
    for (const channel of ['outbox', 'flaky']) {
      const result = await kernel.assembleTools({ channel }).execute('message', { action: 'send', message: huge });
      expect(errorCode(result)).toBe('BODY_TOO_LARGE');
      expect(textOf(result)).toContain('10485760 bytes');
      expect(textOf(result)).toContain('Nothing was sent');
    }
    expect(outboxLines()).toHaveLength(before.outbox);
    expect(flakyRequests()).toHaveLength(before.flaky);
  });

  it('says "not delivered" only when the channel is sure, and "delivery unknown" when it is not', async () => {
    const tools = kernel.assembleTools({ channel: 'flaky' });
    const refused = await tools.execute('message', { action: 'send', message: 'refuse' });
    expect(errorCode(refused)).toBe('NOT_DELIVERED');
    expect(textOf(refused)).toContain('the far side said no');
    const maybe = await tools.execute('message', { action: 'send', message: 'maybe' });
    expect(errorCode(maybe)).toBe('DELIVERY_UNKNOWN');
    expect(textOf(maybe)).toMatch(/delivery unknown: "send" on channel "flaky" may have reached its destination/);
    expect(textOf(maybe)).not.toMatch(/fail/i);
  });

  it('offers no message tool when the run names a channel nobody serves, and says why', () => {
    const toolSet = kernel.assembleTools({ channel: 'slack' });
    expect(toolSet.tools.map((tool) => tool.name)).not.toContain('message');
    expect(toolSet.warnings.join('\n')).toContain('this run\'s channel "slack" is served by no enabled plugin (enabled channels: outbox, flaky)');
  });

  it('offers no message tool when several channels are enabled and the run names none', () => {
    const toolSet = kernel.assembleTools({});
    expect(toolSet.tools.map((tool) => tool.name)).not.toContain('message');
    expect(toolSet.warnings.join('\n')).toMatch(/several are enabled \(outbox, flaky\).*tools\.message\.defaultChannel/);
  });
});

describe('the message tool with cross-session sends enabled', () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await startKernel(config({ tools: { profile: 'messaging', message: { crossSession: true, defaultChannel: 'flaky' } } }));
  });
  afterAll(() => kernel.stop());

  it('lets a session send on another channel, labelled as coming from that session', async () => {
    const toolSet = kernel.assembleTools({ sessionKey: 'agent:main:group:team' });
    const schema = toolSet.tools.find((tool) => tool.name === 'message')?.inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(schema.channel.enum).toEqual(['flaky', 'outbox']);
    const result = await toolSet.execute('message', { action: 'send', channel: 'outbox', message: 'from the team room' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('labelled as sent from session agent:main:group:team (cross-session)');
    expect(result.details).toMatchObject({ source: { sessionKey: 'agent:main:group:team', channel: 'flaky', crossSession: true } });
    expect(outboxLines().at(-1)).toMatchObject({ message: 'from the team room', source: { sessionKey: 'agent:main:group:team', channel: 'flaky', crossSession: true } });
  });

  it('still refuses an action the target channel lacks', async () => {
    const result = await kernel.assembleTools({}).execute('message', { action: 'read', channel: 'flaky' });
    expect(errorCode(result)).toBe('UNSUPPORTED_ACTION');
  });
});

describe('a channel plugin that dies or hangs mid-send', () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await startKernel({
      plugins: [{ id: 'flaky-channel', module: fixtureModule('flaky-channel'), settings: { log: flakyLog }, timeouts: { ...FAST, callMs: 2_000 } }],
      tools: { profile: 'messaging' },
    });
  });
  afterAll(() => kernel.stop());

  it('reports a send the channel never answered as delivery unknown, never as failed', async () => {
    const result = await kernel.assembleTools({}).execute('message', { action: 'send', message: 'hang' });
    expect(errorCode(result)).toBe('DELIVERY_UNKNOWN');
    expect(textOf(result)).toContain('delivery unknown');
    expect(textOf(result)).toContain('may have reached its destination');
  });

  it('reports a send whose channel process died mid-call as delivery unknown', async () => {
    const result = await kernel.assembleTools({}).execute('message', { action: 'send', message: 'crash' });
    expect(errorCode(result)).toBe('DELIVERY_UNKNOWN');
    expect(result.details).toMatchObject({ cause: 'PLUGIN_CRASHED', status: 'delivery_unknown' });
  });
});

describe('a channel id two plugins declare', () => {
  it('belongs to neither: no message tool, and a warning names both plugins', async () => {
    const kernel = await startKernel({
      plugins: [
        { id: 'outbox-a', module: pluginModule('channel-outbox'), settings: { dir: path.join(scratch.dir, 'a') }, timeouts: FAST },
        { id: 'outbox-b', module: pluginModule('channel-outbox'), settings: { dir: path.join(scratch.dir, 'b') }, timeouts: FAST },
      ],
    });
    try {
      const toolSet = kernel.assembleTools({ channel: 'outbox' });
      expect(toolSet.tools.map((tool) => tool.name)).not.toContain('message');
      expect(toolSet.warnings.join('\n')).toContain('channel "outbox" is declared by plugins "outbox-a" and "outbox-b"');
    } finally {
      await kernel.stop();
    }
  });
});

describe('deny lists reach channels', () => {
  it('puts a channel a deny list names out of reach, naming the layer', async () => {
    const kernel = await startKernel(config({ tools: { profile: 'messaging', deny: ['flaky'], message: { crossSession: true, defaultChannel: 'outbox' } } }));
    try {
      const own = kernel.assembleTools({ channel: 'flaky' });
      expect(own.tools.map((tool) => tool.name)).not.toContain('message');
      expect(own.warnings.join('\n')).toContain('this session\'s channel "flaky" is denied by tools.deny (tools.deny)');
      const before = flakyRequests().length;
      const other = await kernel.assembleTools({}).execute('message', { action: 'send', channel: 'flaky', message: 'hi' });
      expect(errorCode(other)).toBe('CHANNEL_DENIED');
      expect(flakyRequests()).toHaveLength(before);
      const schema = kernel.assembleTools({}).tools.find((tool) => tool.name === 'message')?.inputSchema.properties as Record<string, unknown>;
      expect(schema).not.toHaveProperty('channel');
    } finally {
      await kernel.stop();
    }
  });

  it("keeps a sandboxed session off channels the sandbox's default deny names, even with message allowed", async () => {
    const kernel = await startKernel({
      plugins: [{ id: 'channel-outbox', module: pluginModule('channel-outbox'), settings: { dir: path.join(scratch.dir, 'slack'), channel: 'slack' }, timeouts: FAST }],
      tools: { profile: 'full', sandbox: { tools: { alsoAllow: ['message'] } } },
      agents: { list: [{ id: 'main', sandbox: { mode: 'non-main', backend: 'local' } }] },
    });
    try {
      expect(kernel.assembleTools({}).tools.map((tool) => tool.name)).toContain('message');
      const sandboxed = kernel.assembleTools({ sessionKey: 'agent:main:group:ext' });
      expect(sandboxed.tools.map((tool) => tool.name)).not.toContain('message');
      expect(sandboxed.warnings.join('\n')).toContain('channel "slack" is denied by sandbox tools.deny (tools.sandbox.tools.deny)');
    } finally {
      await kernel.stop();
    }
  });
});

describe('a plugin that serves a tool named "message"', () => {
  const plugins = (impostor: Record<string, unknown>) => [
    { id: 'channel-outbox', module: pluginModule('channel-outbox'), settings: { dir: path.join(scratch.dir, 'impostor') }, timeouts: FAST },
    { id: 'message-impostor', module: fixtureModule('message-impostor'), timeouts: FAST, ...impostor },
  ];

  it('is refused the core name unless the operator designates it, and the kernel\'s own tool stays', async () => {
    const kernel = await startKernel({ plugins: plugins({}), tools: { profile: 'full' } });
    try {
      const toolSet = kernel.assembleTools({});
      expect(toolSet.tools.filter((tool) => tool.name === 'message').map((tool) => tool.pluginId)).toEqual([undefined]);
      expect(toolSet.warnings.join('\n')).toContain('plugin "message-impostor" may not serve "message"');
    } finally {
      await kernel.stop();
    }
  });

  it('keeps the name when designated: the kernel offers no second message tool, and says so', async () => {
    const kernel = await startKernel({ plugins: plugins({ coreTools: ['message'] }), tools: { profile: 'full' } });
    try {
      const toolSet = kernel.assembleTools({});
      expect(toolSet.tools.filter((tool) => tool.name === 'message').map((tool) => tool.pluginId)).toEqual(['message-impostor']);
      expect(toolSet.warnings.join('\n')).toContain('plugin "message-impostor" serves "message", so the kernel\'s own message tool is not offered');
      expect(textOf(await toolSet.execute('message', { action: 'send' }))).toBe('from the plugin');
    } finally {
      await kernel.stop();
    }
  });
});
