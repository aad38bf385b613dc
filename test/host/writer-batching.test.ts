import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { NdjsonMessageWriter } from '../../protocol/index.js';

/** A writable that records each write it is handed (one entry per system call it would make). */
function recorder(): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString());
      done();
    },
  });
  return { stream, writes };
}

const note = (n: number) => ({ jsonrpc: '2.0' as const, method: 'n', params: { n } });

describe('the ndjson writer batches what one tick writes', () => {
  it('sends the messages of one tick in one write, in order, and later ones in another', async () => {
    const { stream, writes } = recorder();
    const writer = new NdjsonMessageWriter(stream, { peer: 'test', maxMessageBytes: 1 << 20 });
    await Promise.all([1, 2, 3].map((n) => writer.write(note(n))));
    await writer.write(note(4));
    expect(writes).toHaveLength(2);
    expect(writes[0]!.split('\n').filter(Boolean).map((line) => JSON.parse(line).params.n)).toEqual([1, 2, 3]);
    expect(JSON.parse(writes[1]!).params.n).toBe(4);
  });

  it('end() sends what was accepted before it ends the stream', async () => {
    const { stream, writes } = recorder();
    const writer = new NdjsonMessageWriter(stream, { peer: 'test', maxMessageBytes: 1 << 20 });
    const sent = writer.write(note(1));
    writer.end();
    await sent;
    expect(writes).toHaveLength(1);
    expect(stream.writableEnded).toBe(true);
  });

  it('rejects every message of a batch whose stream closed before the tick, naming the peer', async () => {
    const { stream, writes } = recorder();
    const writer = new NdjsonMessageWriter(stream, { peer: 'plugin "x"', maxMessageBytes: 1 << 20 });
    const sent = [writer.write(note(1)), writer.write(note(2))];
    stream.destroy();
    for (const s of sent) await expect(s).rejects.toThrow('the RPC channel to plugin "x" is closed');
    expect(writes).toHaveLength(0);
  });

  it('refuses an oversized request on its own and still sends the rest of the batch', async () => {
    const { stream, writes } = recorder();
    const writer = new NdjsonMessageWriter(stream, { peer: 'test', maxMessageBytes: 200 });
    const big = writer.write({ jsonrpc: '2.0', method: 'n', params: { text: 'x'.repeat(500) } });
    const small = writer.write(note(1));
    await expect(big).rejects.toThrow(/too large|exceeds|bytes/i);
    await small;
    expect(writes).toHaveLength(1);
  });
});
