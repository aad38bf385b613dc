/**
 * The resumable-stream store of `pincer serve --http`: what a client that lost a stream gets back,
 * and what a busy session keeps. The load suite (test/soak/serve-load.test.ts, bench/serve-load.ts)
 * found the server's heap growing for minutes at a steady 100 sessions: every session kept its
 * last 1,000 events, answers its client had long read. Now a completed stream is kept 30 s.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { BoundedEventStore, MAX_STORED_EVENTS, RETAIN_COMPLETED_MS } from '../../cli/serve/event-store.js';

const priming = {} as JSONRPCMessage;
const progress = (n: number) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: n } }) as JSONRPCMessage;
const answer = (id: number) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `answer ${id}` }] } }) as JSONRPCMessage;

async function replayed(store: BoundedEventStore, lastEventId: string): Promise<JSONRPCMessage[]> {
  const sent: JSONRPCMessage[] = [];
  await store.replayEventsAfter(lastEventId, { send: async (_id, message) => void sent.push(message) });
  return sent;
}

describe('the resumable-stream event store', () => {
  it('replays what a client missed after its Last-Event-ID, the answer included, within the retention', async () => {
    let now = 0;
    const store = new BoundedEventStore({ now: () => now });
    const first = await store.storeEvent('s1', priming);
    await store.storeEvent('other', progress(9));
    await store.storeEvent('s1', progress(1));
    await store.storeEvent('s1', answer(1));
    now += RETAIN_COMPLETED_MS - 1;
    expect(await replayed(store, first)).toEqual([progress(1), answer(1)]);
  });

  it('forgets a completed stream once the retention passed, and keeps a stream still in flight however old', async () => {
    let now = 0;
    const store = new BoundedEventStore({ now: () => now });
    const done = await store.storeEvent('done', priming);
    await store.storeEvent('done', answer(1));
    const running = await store.storeEvent('running', priming);
    await store.storeEvent('running', progress(1));
    now += RETAIN_COMPLETED_MS;
    await store.storeEvent('running', progress(2)); // any store expires what is due
    expect(await replayed(store, done)).toEqual([]);
    expect(await replayed(store, running)).toEqual([progress(1), progress(2)]);
  });

  it('stays flat for a session that calls for ten minutes (4 calls/s), where it used to fill to its cap', async () => {
    let now = 0;
    const store = new BoundedEventStore({ now: () => now });
    const sizes: number[] = [];
    for (let call = 1; call <= 2_400; call++) {
      now += 250;
      await store.storeEvent(`call-${call}`, priming);
      await store.storeEvent(`call-${call}`, answer(call));
      if (call % 240 === 0) sizes.push(store.size);
    }
    // 30 s of completed calls at 4 calls/s, two events each: 240, never the cap.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * 4 * (RETAIN_COMPLETED_MS / 1000) + 2);
    expect(Math.max(...sizes)).toBeLessThan(MAX_STORED_EVENTS);
    expect(new Set(sizes.slice(1)).size).toBe(1);
  });

  it('still bounds a flood of events on one stream by count, replaying what is left after a dropped Last-Event-ID', async () => {
    const store = new BoundedEventStore();
    const first = await store.storeEvent('flood', priming);
    for (let n = 1; n <= MAX_STORED_EVENTS + 10; n++) await store.storeEvent('flood', progress(n));
    expect(store.size).toBe(MAX_STORED_EVENTS);
    const rest = await replayed(store, first);
    expect(rest).toHaveLength(MAX_STORED_EVENTS);
    expect(rest[0]).toEqual(progress(11));
  });
});
