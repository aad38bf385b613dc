/**
 * What the chaos soak found, pinned: a plugin that hung up its pipe while one of its calls
 * missed its deadline killed the kernel. The deadline sent $/cancelRequest over the closed
 * channel (vscode-jsonrpc threw, and logged it to the console), then the liveness probe's
 * $/ping threw synchronously out of a fire-and-forget promise: an unhandled rejection, which
 * ends a Node process. And kernel.stop() in the same window rejected (its $/shutdown threw) and
 * left the process running. Now a send on a closed channel is never attempted, and the close decides.
 */
import { PassThrough } from 'node:stream';
import { createMessageConnection, RequestType } from 'vscode-jsonrpc/node';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { HANGS_UP } from '../../bench/lib/chaos.js';
import { processesWith } from '../../bench/lib/process-table.js';
import { InflightCalls, requestWithDeadline } from '../../kernel/host/call.js';
import { watchChannel } from '../../kernel/host/channel-state.js';
import { ping } from '../../kernel/host/liveness.js';
import { createKernel, type FailedCallResult } from '../../kernel/index.js';
import { createStreamTransport } from '../../protocol/index.js';
import { tempDir } from '../helpers/temp-dir.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const rejections: unknown[] = [];
const record = (reason: unknown) => void rejections.push(reason);
process.on('unhandledRejection', record);
afterAll(() => void process.off('unhandledRejection', record));

/** A kernel-side connection whose plugin never answers; `hangUp()` closes the channel under it. */
function silentChannel() {
  const fromPlugin = new PassThrough();
  const toPlugin = new PassThrough().resume();
  const transport = createStreamTransport(fromPlugin, toPlugin, { peer: 'plugin "quiet"' });
  const conn = createMessageConnection(transport.reader, transport.writer);
  watchChannel(conn);
  conn.listen();
  return { conn, hangUp: () => fromPlugin.end() };
}

describe('a call whose plugin hangs up as its deadline passes', () => {
  it('pings a closed channel without throwing: the outcome is closed, not silence', async () => {
    const { conn, hangUp } = silentChannel();
    hangUp();
    await sleep(10);
    expect(await ping(conn, 100)).toBe('closed');
    conn.dispose();
    expect(await ping(conn, 100)).toBe('closed');
  });

  it('times out a call over a channel that closed meanwhile without sending a cancel into it', async () => {
    const { conn, hangUp } = silentChannel();
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const call = requestWithDeadline(conn, new RequestType<object, unknown, unknown>('tool/invoke'), {}, { timeoutMs: 100, maxTotalMs: 1_000 }, { pluginId: 'quiet', what: 'tool "t"', inflight: new InflightCalls() });
      hangUp();
      await expect(call).rejects.toMatchObject({ code: 'PLUGIN_TIMEOUT', pluginId: 'quiet' });
      expect(consoleError).not.toHaveBeenCalled();
    } finally {
      consoleError.mockRestore();
      conn.dispose();
    }
  });

  it('keeps the kernel alive: the call ends PLUGIN_TIMEOUT, the hang-up is a crash, the plugin comes back', async () => {
    const cwd = tempDir('pincer-chaos-regression-');
    process.env.PINCER_STATE_DIR = tempDir('pincer-chaos-regression-state-');
    const kernel = createKernel(
      { plugins: [{ id: 'hangs', module: HANGS_UP, timeouts: { callMs: 300, pingMs: 1_000, shutdownGraceMs: 300, killGraceMs: 300 } }], agents: { list: [{ id: 'main', default: true, workspace: cwd }] } },
      { logger: () => undefined, cwd, restart: { backoffBaseMs: 50 } },
    );
    await kernel.start();
    try {
      const status = () => kernel.plugins()[0]!;
      const pid = status().pid!;
      const call = kernel.assembleTools({ agentId: 'main' }).execute('hangs_echo', { tag: 'late', ms: 5_000 });
      await sleep(100);
      process.kill(pid, 'SIGUSR2'); // closes its pipe; the kernel waits 500 ms for an exit, the deadline comes first
      expect((await call) as FailedCallResult).toMatchObject({ outcome: 'timed_out', code: 'PLUGIN_TIMEOUT' });
      for (let i = 0; status().pid === pid || status().state !== 'ready'; i++) {
        if (i > 200) throw new Error(`no restart: ${JSON.stringify(status())}`);
        await sleep(25);
      }
      expect(status().lastError?.message).toContain('plugin "hangs" closed its RPC channel');
      expect(rejections).toEqual([]);
    } finally {
      await kernel.stop();
    }
  });

  it('stops a kernel whose plugin just hung up (before its close was judged), leaving no process', async () => {
    const cwd = tempDir('pincer-chaos-regression-stop-');
    const marker = `pincer-hangup-stop-${process.pid}`;
    const kernel = createKernel(
      { plugins: [{ id: 'hangs', module: HANGS_UP, args: [marker], timeouts: { shutdownGraceMs: 300, killGraceMs: 300 } }], agents: { list: [{ id: 'main', default: true, workspace: cwd }] } },
      { logger: () => undefined, cwd },
    );
    await kernel.start();
    process.kill(kernel.plugins()[0]!.pid!, 'SIGUSR2');
    await sleep(100); // the channel is closed; the kernel gives the process 500 ms to exit
    await expect(kernel.stop()).resolves.toBeUndefined();
    expect(processesWith(marker)).toEqual([]);
  });
});
