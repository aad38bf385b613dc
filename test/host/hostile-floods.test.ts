import { afterEach, describe, expect, it } from 'vitest';
import type { PluginHost } from '../../kernel/host/index.js';
import { TOOL_UPDATE_WINDOW_MS } from '../../kernel/host/plugin-tools.js';
import { RequestLimit } from '../../kernel/host/request-limit.js';
import { fixture, testHost, waitFor } from './helpers.js';

const text = (r: { content: Array<{ type: string; text?: string }> }): string => r.content.map((b) => b.text ?? '').join('');

describe('the workspace request limit', () => {
  it('serves a few at a time, queues some, refuses the rest, and lets a queued request be cancelled', async () => {
    const limit = new RequestLimit(2, 1);
    const signal = new AbortController().signal;
    const a = await limit.acquire(signal);
    const b = await limit.acquire(signal);
    const cancel = new AbortController();
    const queued = limit.acquire(cancel.signal);
    expect(await limit.acquire(signal)).toBeUndefined(); // the queue is full
    cancel.abort();
    expect(await queued).toBeUndefined();
    const c = limit.acquire(signal);
    a!();
    expect(typeof (await c)).toBe('function');
    b!();
    expect(limit.size).toEqual({ running: 1, queued: 0 });
  });
});

describe('a plugin that floods the kernel', () => {
  let current: PluginHost | undefined;
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });

  it('gets 4,000 tool-list updates coalesced into a handful of changes, the last one winning', async () => {
    const { host } = testHost([{ id: 'flood', module: fixture('floods-tool-updates') }]);
    current = host;
    await host.start();
    let changes = 0;
    host.onDidChange(() => void (changes += 1));
    expect(text(await host.invokeTool('flood', 'flood_updates', { count: 4_000 }))).toBe('sent 4000');
    await waitFor(() => host.contributedTools().some((t) => t.name === 'generated_4000'), 10_000, 'last update applied');
    expect(host.contributedTools().map((t) => t.name)).toEqual(['flood_updates', 'flood_workspace', 'flood_unread', 'generated_4000']);
    expect(changes).toBeLessThan(20);
  });

  it('gets its tool-list updates ignored, and logged once, without the toolsListChanged capability', async () => {
    const { host, logs } = testHost([{ id: 'flood', module: fixture('floods-tool-updates'), settings: { capability: false } }]);
    current = host;
    await host.invokeTool('flood', 'flood_updates', { count: 100 });
    await waitFor(() => logs.some((l) => l.message.includes('did not declare capabilities.toolsListChanged')), 5_000, 'warning');
    // Past the coalescing window, an accepted update would have been applied by now.
    await new Promise((r) => setTimeout(r, TOOL_UPDATE_WINDOW_MS * 2));
    expect(host.contributedTools().map((t) => t.name)).toEqual(['flood_updates', 'flood_workspace', 'flood_unread']);
    expect(logs.filter((l) => l.message.includes('ignored tools/listChanged'))).toHaveLength(1);
  });

  it('has its 2,000 concurrent workspace requests served at most 16 at a time, and those over the queue refused', async () => {
    const { host } = testHost([{ id: 'flood', module: fixture('floods-tool-updates'), timeouts: { callMs: 60_000 } }]);
    current = host;
    let running = 0;
    let peak = 0;
    host.setWorkspaceHandler(async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running -= 1;
      return { exitCode: 0, signal: null, stdout: '', stderr: '', timedOut: false, truncated: false, durationMs: 5 };
    });
    const outcome = JSON.parse(text(await host.invokeTool('flood', 'flood_workspace', { count: 2_000 }))) as { served: number; refused: number };
    expect(peak).toBe(16);
    expect(outcome.served + outcome.refused).toBe(2_000);
    expect(outcome.refused).toBeGreaterThan(0);
    expect(outcome.served).toBeGreaterThanOrEqual(16 + 256);
  });

  it('is served no more workspace reads while it leaves their answers unread, and the rest once it reads again', async () => {
    const { host } = testHost([{ id: 'flood', module: fixture('floods-tool-updates'), timeouts: { callMs: 60_000 } }]);
    current = host;
    let served = 0;
    const content = 'x'.repeat(1024 * 1024);
    host.setWorkspaceHandler(async (_plugin, _session, _method, params) => {
      served += 1;
      return { path: params.path, content, encoding: 'utf8', size: content.length };
    });
    expect(text(await host.invokeTool('flood', 'flood_unread', { count: 200, pauseMs: 2_500 }))).toBe('sent 200');
    await new Promise((r) => setTimeout(r, 1_500));
    // 8 MiB of unread answers, and the 16 the limit lets start: not the 200 MiB it asked for.
    expect(served).toBeGreaterThan(0);
    expect(served).toBeLessThanOrEqual(8 + 16 + 8);
    await waitFor(() => served === 200, 30_000, 'the other reads, once it reads again');
  });
});
