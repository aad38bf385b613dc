import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kernel } from '../../kernel/index.js';
import { FAST, ROOT, errorCode, fixtureModule, startKernel, textOf } from './helpers.js';

describe('the channel plugin example of docs/message.md', () => {
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = await startKernel({ plugins: [{ id: 'memo-channel', module: fixtureModule('memo-channel'), timeouts: FAST }], tools: { profile: 'messaging' } });
  });
  afterAll(() => kernel.stop());

  it('is the code the doc shows', () => {
    const doc = readFileSync(path.join(ROOT, 'docs/message.md'), 'utf8');
    const source = readFileSync(path.join(ROOT, 'test/fixtures/message/memo-channel.ts'), 'utf8');
    const body = source.slice(source.indexOf('const memos'));
    expect(doc).toContain("import { definePlugin, serve } from 'pincer/sdk';");
    expect(doc).toContain(body.trim());
  });

  it('works end to end: its actions in the schema, a send, a duplicate retry, a refusal, a read', async () => {
    const toolSet = kernel.assembleTools({});
    const schema = toolSet.tools.find((tool) => tool.name === 'message')?.inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(schema.action.enum).toEqual(['send', 'react', 'read']);
    const sent = await toolSet.execute('message', { action: 'send', to: 'team', message: 'lunch at noon' }, { toolCallId: 'm-1' });
    expect(textOf(sent)).toMatch(/^Delivered: "send" on channel "memo"/);
    expect(textOf(await toolSet.execute('message', { action: 'send', to: 'team', message: 'lunch at noon' }, { toolCallId: 'm-1' }))).toContain('not sent again');
    expect(errorCode(await toolSet.execute('message', { action: 'react', messageId: 'nope', emoji: '+1' }))).toBe('ACTION_FAILED');
    const read = await toolSet.execute('message', { action: 'read' });
    expect((read.details?.data as { memos: unknown[] }).memos).toHaveLength(1);
  });
});
