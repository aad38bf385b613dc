import { afterEach, describe, expect, it } from 'vitest';
import type { PluginConfigInput, PluginHost } from '../../kernel/host/index.js';
import { alive, fixture, groupMembers, testHost, waitFor, zombieChildren } from './helpers.js';

let current: PluginHost | undefined;
afterEach(async () => {
  await current?.stop();
  current = undefined;
  expect(zombieChildren()).toEqual([]);
});

function host(plugins: PluginConfigInput[]) {
  const t = testHost(plugins);
  current = t.host;
  return t;
}
const text = (r: { content: unknown[] }): string => (r.content[0] as { text: string }).text;

describe('plugin failure modes', () => {
  it('marks a plugin that crashes on start as failed after three crashes, says why, and drops its tools', async () => {
    const { host: h, logs } = host([{ id: 'cos', module: fixture('crash-on-start'), required: true }, { id: 'echo', module: fixture('echo') }]);
    await h.start();
    await waitFor(() => h.pluginStatus('cos').state === 'failed', 10_000, 'failed state');
    const s = h.pluginStatus('cos');
    expect(s.restarts).toBe(2);
    expect(s.lastError).toMatchObject({ code: 'PLUGIN_FAILED', message: expect.stringMatching(/crashed 3 times .* exited with code 1/) });
    expect(h.contributions().map((c) => c.pluginId)).toEqual(['echo']);
    await expect(h.invokeTool('cos', 'x', {})).rejects.toMatchObject({ code: 'PLUGIN_FAILED' });
    expect(h.requiredPluginsHealthy(['cos', 'echo'])).toMatchObject({ healthy: false, problems: [{ pluginId: 'cos', state: 'failed' }] });
    expect(h.requiredPluginsHealthy(['echo'])).toEqual({ healthy: true, problems: [] });
    expect(h.requiredPluginsHealthy(['ghost'])).toMatchObject({ healthy: false, problems: [{ pluginId: 'ghost', state: 'missing' }] });
    expect(logs.some((l) => l.source === 'plugin:cos' && l.message.includes('giving up immediately'))).toBe(true);
    expect(h.pluginStatus('echo').state).toBe('ready');
  });

  it('settles an in-flight call with PLUGIN_CRASHED when the plugin dies mid-call, then restarts it', async () => {
    const { host: h } = host([{ id: 'cmc', module: fixture('crash-mid-call') }]);
    await h.start();
    const firstPid = h.pluginStatus('cmc').pid!;
    const pending = [h.invokeTool('cmc', 'boom', {}), h.invokeTool('cmc', 'boom', {})];
    for (const p of pending) await expect(p).rejects.toMatchObject({ code: 'PLUGIN_CRASHED', pluginId: 'cmc', message: expect.stringContaining('exited with code 7') });
    await waitFor(() => h.pluginStatus('cmc').state === 'ready', 5_000, 'restart');
    expect(h.pluginStatus('cmc')).toMatchObject({ restarts: 1, lastError: { code: 'PLUGIN_CRASHED' } });
    expect(h.pluginStatus('cmc').pid).not.toBe(firstPid);
    expect(text(await h.invokeTool('cmc', 'ok', {}))).toBe('ok');
    expect(groupMembers(firstPid)).toEqual([]);
  });

  it('fails a call that hangs with PLUGIN_TIMEOUT at its deadline and keeps serving other calls', async () => {
    const { host: h } = host([{ id: 'hoc', module: fixture('hang-on-call') }]);
    const started = Date.now();
    await expect(h.invokeTool('hoc', 'hang', {}, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'PLUGIN_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(text(await h.invokeTool('hoc', 'ok', {}))).toBe('ok');
    expect(h.pluginStatus('hoc')).toMatchObject({ state: 'ready', inflight: 0 });
  });

  it('kills a plugin that ignores shutdown, pipe close and SIGTERM with SIGKILL of its group after the grace periods', async () => {
    const { host: h } = host([{ id: 'hos', module: fixture('hang-on-shutdown') }]);
    await h.start();
    const pid = h.pluginStatus('hos').pid!;
    const started = Date.now();
    await h.stop();
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1_000); // shutdown grace + kill grace (500 ms each)
    expect(took).toBeLessThan(5_000);
    expect(alive(pid)).toBe(false);
    expect(groupMembers(pid)).toEqual([]);
    expect(h.pluginStatus('hos').state).toBe('stopped');
  });

  it('treats stdout noise as log lines when the RPC is on fd 3', async () => {
    const { host: h, logs } = host([{ id: 'noise', module: fixture('stdout-noise') }]);
    expect(text(await h.invokeTool('noise', 'noisy', {}))).toBe('quiet answer');
    await waitFor(() => logs.filter((l) => l.source === 'plugin:noise' && l.message.startsWith('noise via')).length >= 6, 2_000, 'noise logs');
    expect(h.pluginStatus('noise').state).toBe('ready');
  });

  it('reports garbage on stdout in stdio mode as a framing error naming the plugin and the bytes', async () => {
    const { host: h } = host([{ id: 'noise-stdio', module: fixture('stdout-noise'), transport: 'stdio' }]);
    await h.start();
    await waitFor(() => h.pluginStatus('noise-stdio').lastError?.code === 'FRAMING_ERROR', 5_000, 'framing error');
    expect(h.pluginStatus('noise-stdio').lastError!.message).toMatch(/plugin "noise-stdio" wrote bytes that are not a JSON-RPC message .*"noise via a raw write to fd 1"/);
  });

  it('refuses a plugin that speaks no common protocol version, naming both sides and the fix', async () => {
    const { host: h } = host([{ id: 'bv', module: fixture('bad-version') }]);
    await h.start();
    const s = h.pluginStatus('bv');
    expect(s.state).toBe('failed');
    expect(s.restarts).toBe(0);
    expect(s.lastError).toMatchObject({ code: 'VERSION_MISMATCH', message: expect.stringMatching(/speaks protocol version\(s\) \[99\]; this kernel speaks \[1\].*upgrade the kernel/) });
  });

  it.each([
    ['old-shape', 'HANDSHAKE_FAILED', /answered the handshake with an invalid shape/],
    ['wrong-id', 'HANDSHAKE_FAILED', /configured as "legacy" introduced itself as "someone-else"/],
    ['unoffered-version', 'VERSION_MISMATCH', /speaks protocol version\(s\) \[7\]; this kernel speaks \[1\]/],
  ])('refuses a legacy or foreign peer (%s) at once, without restarting it', async (mode, code, message) => {
    const { host: h } = host([{ id: 'legacy', module: fixture('legacy-peer'), settings: { mode } }]);
    await h.start();
    expect(h.pluginStatus('legacy')).toMatchObject({ state: 'failed', restarts: 0, lastError: { code, message: expect.stringMatching(message) } });
  });

  it('settles the call that got a malformed frame with FRAMING_ERROR and restarts the plugin', async () => {
    const { host: h } = host([{ id: 'mf', module: fixture('malformed-frame') }]);
    await expect(h.invokeTool('mf', 'broken', {})).rejects.toMatchObject({ code: 'FRAMING_ERROR', message: expect.stringContaining('\\u0001\\u0002 not json') });
    expect(h.pluginStatus('mf').state).toBe('restarting');
    await expect(h.invokeTool('mf', 'ok', {})).rejects.toMatchObject({ code: 'PLUGIN_NOT_READY' });
    await waitFor(() => h.pluginStatus('mf').state === 'ready', 5_000, 'restart');
    expect(h.pluginStatus('mf')).toMatchObject({ restarts: 1, lastError: { code: 'FRAMING_ERROR' } });
    expect(text(await h.invokeTool('mf', 'ok', {}))).toBe('ok');
  });

  it('answers an oversized response with MESSAGE_TOO_LARGE without losing the plugin', async () => {
    const { host: h } = host([{ id: 'big', module: fixture('oversized-message'), maxMessageBytes: 64 * 1024 }]);
    await expect(h.invokeTool('big', 'big', { bytes: 200_000 })).rejects.toMatchObject({ code: 'MESSAGE_TOO_LARGE', message: expect.stringMatching(/over the cap of 65536 bytes/) });
    expect(text(await h.invokeTool('big', 'small', {}))).toBe('small');
    expect(h.pluginStatus('big')).toMatchObject({ state: 'ready', restarts: 0 });
  });

  it('refuses to send a request over the size cap', async () => {
    const { host: h } = host([{ id: 'echo', module: fixture('echo'), maxMessageBytes: 16 * 1024 }]);
    await expect(h.invokeTool('echo', 'echo', { blob: 'y'.repeat(20_000) })).rejects.toMatchObject({ code: 'MESSAGE_TOO_LARGE' });
    expect(text(await h.invokeTool('echo', 'echo', { a: 1 }))).toBe('{"a":1}');
  });

  it('waits for a slow start within the handshake deadline', async () => {
    const { host: h } = host([{ id: 'slow', module: fixture('slow-start'), settings: { delayMs: 800 } }]);
    await h.start();
    expect(h.pluginStatus('slow').state).toBe('ready');
  });

  it('restarts a plugin that misses the handshake deadline, then marks it failed', async () => {
    const { host: h } = host([{ id: 'slow', module: fixture('slow-start'), settings: { delayMs: 5_000 }, timeouts: { handshakeMs: 300 } }]);
    await h.start();
    expect(h.pluginStatus('slow').lastError).toMatchObject({ code: 'HANDSHAKE_FAILED', message: expect.stringContaining('within 300 ms') });
    await waitFor(() => h.pluginStatus('slow').state === 'failed', 10_000, 'failed');
    expect(h.pluginStatus('slow').restarts).toBe(2);
  });

  it('kills a grandchild that holds the pipes when the plugin stops', async () => {
    const { host: h } = host([{ id: 'fg', module: fixture('forks-grandchild') }]);
    const grandchild = Number(text(await h.invokeTool('fg', 'grandchild', {})));
    const pgid = h.pluginStatus('fg').pid!;
    expect(alive(grandchild)).toBe(true);
    await h.stop();
    await waitFor(() => !alive(grandchild), 3_000, 'grandchild gone');
    expect(groupMembers(pgid)).toEqual([]);
  });

  it('detects the exit of a plugin whose grandchild keeps the pipes open, and kills the grandchild', async () => {
    const { host: h } = host([{ id: 'fg', module: fixture('forks-grandchild') }]);
    const grandchild = Number(text(await h.invokeTool('fg', 'grandchild', {})));
    const pgid = h.pluginStatus('fg').pid!;
    await expect(h.invokeTool('fg', 'die', {})).rejects.toMatchObject({ code: 'PLUGIN_CRASHED' });
    await waitFor(() => !alive(grandchild), 3_000, 'grandchild gone');
    expect(groupMembers(pgid)).toEqual([]);
    await waitFor(() => h.pluginStatus('fg').state === 'ready', 5_000, 'restart');
  });

  it('settles in-flight calls with PLUGIN_STOPPED when the host stops', async () => {
    const { host: h } = host([{ id: 'hoc', module: fixture('hang-on-call') }]);
    await h.start();
    const call = h.invokeTool('hoc', 'hang', {}, { timeoutMs: 60_000 }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await h.stop();
    expect(await call).toMatchObject({ code: 'PLUGIN_STOPPED' });
  });

  it('fails a plugin whose command does not exist with SPAWN_FAILED', async () => {
    const { host: h } = host([{ id: 'nope', command: ['/nonexistent/pincer-plugin'] }]);
    await h.start();
    expect(h.pluginStatus('nope')).toMatchObject({ state: 'failed', lastError: { code: 'SPAWN_FAILED' } });
  });
});
