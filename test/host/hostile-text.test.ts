import { afterEach, describe, expect, it } from 'vitest';
import { escapeForTerminal, type PluginHost } from '../../kernel/host/index.js';
import { fixture, testHost, waitFor } from './helpers.js';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('a plugin that writes terminal escape sequences everywhere', () => {
  let current: PluginHost | undefined;
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });
  const start = (mode: string) => {
    const t = testHost([{ id: 'esc', module: fixture('writes-escape-sequences'), settings: { mode } }]);
    current = t.host;
    return t;
  };

  it('gets only tools whose names match the rule, descriptions escaped, and every log record one escaped line', async () => {
    const { host, logs } = start('tools');
    await host.start();
    const status = host.pluginStatus('esc');
    expect(host.contributedTools().map((t) => t.name)).toEqual(['fine']);
    expect(status.rejectedTools.map((r) => [r.code, r.reason])).toEqual([
      ['INVALID_TOOL', expect.stringContaining('name: must match ^[A-Za-z0-9_.-]{1,64}$')],
      ['INVALID_TOOL', expect.stringContaining('tool "has space"')],
    ]);
    expect(status.rejectedTools[0]!.name).toBe('evil\\x1b]0;pwned\\x07\\x1b[2J\\x1b[1A\\rall plugins healthy\\n[plugin:fs] error: forged');
    expect(host.contributedTools()[0]!.description).toBe('a fine tool\\x1b]0;pwned\\x07\\x1b[2J\\x1b[1A\\rall plugins healthy\n[plugin:fs] error: forged');
    await waitFor(() => logs.some((l) => l.message.startsWith('starting')), 5_000, 'stderr line');
    for (const record of logs) expect(record.message, record.message).not.toMatch(CONTROL);
    expect(logs.filter((l) => l.message.includes('forged')).every((l) => l.source === 'plugin:esc')).toBe(true);
  });

  it('has its error text escaped in the kernel error, and a result stays data for the caller to escape', async () => {
    const { host } = start('tools');
    const error = await host.invokeTool('esc', 'fine', { fail: true }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/answered with an error: failed \\x1b\]0;pwned/);
    expect((error as Error).message).not.toMatch(CONTROL);
    const result = await host.invokeTool('esc', 'fine', {});
    const shown = escapeForTerminal((result.content[0] as { text: string }).text, { keepNewlines: true });
    expect(shown).toBe('result \\x1b]0;pwned\\x07\\x1b[2J\\x1b[1A\\rall plugins healthy\n[plugin:fs] error: forged');
  });

  it.each([
    ['version', /plugin\.version: must be 1-64 printable ASCII/],
    ['claimed-id', /plugin\.id: must be 1-64 printable ASCII/],
  ])('is refused at the handshake for a %s with control characters, in a last error that stays one clean line', async (mode, why) => {
    const { host } = start(mode);
    await host.start();
    const status = host.pluginStatus('esc');
    expect(status).toMatchObject({ state: 'failed', lastError: { code: 'HANDSHAKE_FAILED', message: expect.stringMatching(why) } });
    expect(status.lastError!.message).not.toMatch(CONTROL);
    expect(status.pluginVersion).toBeUndefined();
  });
});
