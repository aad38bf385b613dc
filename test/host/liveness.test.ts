import { ConnectionError, ConnectionErrors, ErrorCodes, ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import { afterEach, describe, expect, it } from 'vitest';
import { ToolInvoke } from '../../protocol/index.js';
import { toKernelError, type PluginHost } from '../../kernel/host/index.js';
import { InflightCalls, requestWithDeadline } from '../../kernel/host/call.js';
import { alive, fixture, groupMembers, testHost, waitFor } from './helpers.js';

const text = (r: { content: Array<{ type: string; text?: string }> }): string => r.content.map((b) => b.text ?? '').join('');

describe('liveness after a missed deadline', () => {
  let current: PluginHost | undefined;
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });

  it('restarts a plugin whose event loop is wedged, and its status says why', async () => {
    const { host } = testHost([{ id: 'wedge', module: fixture('wedges-its-event-loop'), timeouts: { callMs: 300, pingMs: 500 } }]);
    current = host;
    await host.start();
    const firstPid = host.pluginStatus('wedge').pid!;
    await expect(host.invokeTool('wedge', 'wedge', {})).rejects.toMatchObject({ code: 'PLUGIN_TIMEOUT' });
    await waitFor(() => host.pluginStatus('wedge').lastError?.code === 'PLUGIN_UNRESPONSIVE', 10_000, 'liveness verdict');
    expect(host.pluginStatus('wedge').lastError!.message).toMatch(/did not answer a liveness ping within 500 ms after tool "wedge" missed its deadline; restarting it/);
    await waitFor(() => host.pluginStatus('wedge').state === 'ready', 10_000, 'restart');
    expect(host.pluginStatus('wedge')).toMatchObject({ restarts: 1 });
    expect(alive(firstPid)).toBe(false);
    expect(groupMembers(firstPid)).toEqual([]);
    expect(text(await host.invokeTool('wedge', 'ok', {}))).toBe(`ok from ${host.pluginStatus('wedge').pid}`);
  });

  it('keeps a plugin that is only slow: it answers the ping, so it is not restarted', async () => {
    const { host, logs } = testHost([{ id: 'slow', module: fixture('hang-on-call'), timeouts: { callMs: 300, pingMs: 2_000 } }]);
    current = host;
    await host.start();
    const pid = host.pluginStatus('slow').pid!;
    await expect(host.invokeTool('slow', 'hang', {})).rejects.toMatchObject({ code: 'PLUGIN_TIMEOUT' });
    // The ping's answer arrives well within its deadline; once a later call answers, the verdict is in.
    expect(text(await host.invokeTool('slow', 'ok', {}))).toBe('ok');
    await new Promise((r) => setTimeout(r, 2_500)); // past the ping deadline: a silent plugin would be gone by now
    expect(host.pluginStatus('slow')).toMatchObject({ state: 'ready', pid, restarts: 0 });
    expect(logs.some((l) => l.message.includes('liveness'))).toBe(false);
  });
});

describe('a plugin that closes its end of the channel', () => {
  let current: PluginHost | undefined;
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });

  it('fails the next call with PLUGIN_CRASHED (EPIPE is a crash, not a plugin answer) and is restarted', async () => {
    const { host } = testHost([{ id: 'hup', module: fixture('closes-its-input'), transport: 'stdio' }]);
    current = host;
    await host.start();
    const firstPid = host.pluginStatus('hup').pid!;
    expect(text(await host.invokeTool('hup', 'hangup', {}))).toBe('hanging up');
    const error = await host.invokeTool('hup', 'ok', {}).catch((e: { code: string; message: string }) => e);
    expect(error).toMatchObject({ code: 'PLUGIN_CRASHED', message: expect.stringMatching(/RPC channel to plugin "hup" is (broken|closed)/) });
    expect((error as { message: string }).message).not.toContain('answered with an error');
    await waitFor(() => host.pluginStatus('hup').state === 'ready' && host.pluginStatus('hup').pid !== firstPid, 10_000, 'restart');
    expect(alive(firstPid)).toBe(false);
    expect(text(await host.invokeTool('hup', 'ok', {}))).toBe(`ok from ${host.pluginStatus('hup').pid}`);
  });
});

describe('a channel that is gone', () => {
  it('maps a failed write and a closed connection to PLUGIN_CRASHED, a plugin’s own error to PLUGIN_ERROR', () => {
    expect(toKernelError(new ResponseError(ErrorCodes.MessageWriteError, 'write EPIPE'), 'p', 'x').code).toBe('PLUGIN_CRASHED');
    expect(toKernelError(new ConnectionError(ConnectionErrors.Closed, 'Connection is closed.'), 'p', 'x').code).toBe('PLUGIN_CRASHED');
    expect(toKernelError(new ResponseError(-32099 + 1000, 'mine'), 'p', 'x').code).toBe('PLUGIN_ERROR');
  });

  it('settles a request at once, and leaves nothing in flight, when the connection throws on send', async () => {
    const closed = {
      onProgress: () => ({ dispose: () => undefined }),
      sendRequest: () => {
        throw new ConnectionError(ConnectionErrors.Closed, 'Connection is closed.');
      },
    } as unknown as MessageConnection;
    const inflight = new InflightCalls();
    const call = requestWithDeadline(closed, ToolInvoke.type, { name: 'x', arguments: {} }, { timeoutMs: 60_000, maxTotalMs: 60_000, withProgress: true }, { pluginId: 'p', what: 'tool "x"', inflight });
    await expect(call).rejects.toMatchObject({ code: 'PLUGIN_CRASHED' });
    expect(inflight.size).toBe(0);
  });
});
