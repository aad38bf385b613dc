import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { NdjsonMessageWriter } from '../../protocol/index.js';

/**
 * A writable that records each write it is handed, one entry per system call a socket would make:
 * like a net.Socket, it takes what was written while corked as one writev.
 */
function recorder(): { stream: Writable; writes: string[] } {
  const writes: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push(chunk.toString());
      done();
    },
    writev(chunks, done) {
      writes.push(chunks.map(({ chunk }) => String(chunk)).join(''));
      done();
    },
  });
  return { stream, writes };
}

const note = (n: number) => ({ jsonrpc: '2.0' as const, method: 'n', params: { n } });

describe('the ndjson writer batches what one tick writes', () => {
  it('writes the first message of a tick at once and the rest of the tick in one write, in order', async () => {
    const { stream, writes } = recorder();
    const writer = new NdjsonMessageWriter(stream, { peer: 'test', maxMessageBytes: 1 << 20 });
    const numbers = (write: string) => write.split('\n').filter(Boolean).map((line) => JSON.parse(line).params.n);
    const first = [1, 2, 3, 4].map((n) => writer.write(note(n)));
    expect(writes.map(numbers)).toEqual([[1]]); // a lone call waits for nothing
    await Promise.all(first);
    await writer.write(note(5));
    expect(writes.map(numbers)).toEqual([[1], [2, 3, 4], [5]]);
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
    const sent = [writer.write(note(1)), writer.write(note(2)), writer.write(note(3))];
    stream.destroy();
    await sent[0]!.catch(() => undefined); // the first was handed to the stream before it closed
    for (const s of sent.slice(1)) await expect(s).rejects.toThrow('the RPC channel to plugin "x" is closed');
    expect(writes).toHaveLength(1);
  });

  it('refuses an oversized request on its own and still sends the rest of the batch', async () => {
    const { stream, writes } = recorder();
    const writer = new NdjsonMessageWriter(stream, { peer: 'test', maxMessageBytes: 200 });
    const first = writer.write(note(0));
    const big = writer.write({ jsonrpc: '2.0', method: 'n', params: { text: 'x'.repeat(500) } } as Parameters<NdjsonMessageWriter['write']>[0]);
    const small = writer.write(note(1));
    await expect(big).rejects.toThrow(/too large|exceeds|bytes/i);
    await Promise.all([first, small]);
    expect(writes).toHaveLength(2);
  });
});
