import { RequestType, createMessageConnection } from 'vscode-jsonrpc/node';
import { describe, expect, it } from 'vitest';
import { createLinkedPair } from '../../protocol/index.js';
import { InflightCalls, requestWithDeadline } from '../../kernel/host/call.js';

/** A cancelled request is reported cancelled only once the plugin stopped (bounded by the grace). */
describe('cancelling a request with a grace', () => {
  function peerThatStopsSlowly(stopMs: number) {
    const [kernelSide, pluginSide] = createLinkedPair();
    const events: string[] = [];
    const plugin = createMessageConnection(pluginSide.reader, pluginSide.writer);
    const Work = new RequestType<object, string, unknown>('test/work');
    plugin.onRequest(Work, (_params, token) => new Promise((_resolve, reject) => {
      token.onCancellationRequested(() => setTimeout(() => {
        events.push('plugin stopped');
        reject(new Error('stopped'));
      }, stopMs));
    }));
    plugin.listen();
    const kernel = createMessageConnection(kernelSide.reader, kernelSide.writer);
    kernel.listen();
    return { kernel, Work, events, close: () => { kernel.dispose(); plugin.dispose(); } };
  }

  it('waits for the plugin to answer the cancel before settling as CANCELLED', async () => {
    const { kernel, Work, events, close } = peerThatStopsSlowly(200);
    const controller = new AbortController();
    const call = requestWithDeadline(kernel, Work, {}, { signal: controller.signal, timeoutMs: 10_000, maxTotalMs: 10_000, cancelGraceMs: 5_000 }, { pluginId: 'p', what: 'work', inflight: new InflightCalls() })
      .catch((error: { code?: string }) => events.push(`caller told ${error.code}`));
    setTimeout(() => controller.abort(), 20);
    await call;
    expect(events).toEqual(['plugin stopped', 'caller told CANCELLED']);
    close();
  });

  it('does not wait past the grace for a plugin that never answers', async () => {
    const { kernel, Work, events, close } = peerThatStopsSlowly(2_000);
    const controller = new AbortController();
    const call = requestWithDeadline(kernel, Work, {}, { signal: controller.signal, timeoutMs: 10_000, maxTotalMs: 10_000, cancelGraceMs: 100 }, { pluginId: 'p', what: 'work', inflight: new InflightCalls() });
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(events).toEqual([]);
    close();
  });
});
