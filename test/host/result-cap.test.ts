import { afterEach, describe, expect, it } from 'vitest';
import type { PluginHost } from '../../kernel/host/index.js';
import { capToolResult } from '../../kernel/host/result-cap.js';
import { fixture, testHost } from './helpers.js';

describe('the cap on a tool result', () => {
  it('cuts text on a character boundary, replaces images that do not fit, and says so', () => {
    const result = capToolResult({ content: [{ type: 'text', text: 'é'.repeat(10) }, { type: 'image', data: 'A'.repeat(100), mimeType: 'image/png' }] }, 15);
    expect(result.content[0]).toEqual({ type: 'text', text: 'é'.repeat(7) }); // 14 bytes: the 8th would split
    expect(result.content[1]).toEqual({ type: 'text', text: '[image (image/png) of 100 bytes dropped by the kernel]' });
    expect((result.content[2] as { text: string }).text).toMatch(/result cut by the kernel: 105 more bytes over the 15-byte cap/);
  });

  it('leaves a result that fits untouched, and drops details nested too deep to walk', () => {
    const fits = { content: [{ type: 'text' as const, text: 'small' }], details: { a: 1 } };
    expect(capToolResult(fits, 1_000)).toBe(fits);
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    const capped = capToolResult({ content: [], details: deep }, 1_000_000);
    expect(capped.details).toEqual({ truncated: true, note: 'details dropped by the kernel: nested deeper than 64 levels as received' });
  });

  it('counts MCP resource and audio blocks against the cap, and leaves out structured content over it', () => {
    const resource = { type: 'resource' as const, resource: { uri: 'file:///big', text: 'x'.repeat(500) } };
    const capped = capToolResult({ content: [{ type: 'audio', data: 'A'.repeat(50), mimeType: 'audio/wav' }, resource], structuredContent: { big: 'y'.repeat(500) } }, 200);
    expect(capped.content[0]).toMatchObject({ type: 'audio' });
    expect(capped.content[1]).toEqual({ type: 'text', text: expect.stringMatching(/^\[resource block of \d+ bytes dropped by the kernel\]$/) });
    expect(capped.structuredContent).toBeUndefined();
    const small = capToolResult({ content: [resource], structuredContent: { ok: true } }, 200);
    expect(small.structuredContent).toEqual({ ok: true });
  });
});

describe('a plugin that returns 5 MB of text', () => {
  let current: PluginHost | undefined;
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });

  it('has it cut to the configured cap with a note; the default cap holds too', async () => {
    const configured = testHost([{ id: 'big', module: fixture('oversized-message'), maxResultBytes: 64 * 1024 }]);
    current = configured.host;
    const result = await configured.host.invokeTool('big', 'big', { bytes: 5_000_000 });
    const texts = result.content.map((b) => (b as { text: string }).text);
    expect(texts[0]!.length).toBe(64 * 1024);
    expect(texts[1]).toMatch(/result cut by the kernel: \d+ more bytes over the 65536-byte cap on a tool result/);
    await configured.host.stop();
    const byDefault = testHost([{ id: 'big', module: fixture('oversized-message') }]);
    current = byDefault.host;
    const whole = await byDefault.host.invokeTool('big', 'big', { bytes: 5_000_000 });
    expect((whole.content[0] as { text: string }).text.length).toBe(2 * 1024 * 1024);
  });
});
