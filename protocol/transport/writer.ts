import type { Writable } from 'node:stream';
import { AbstractMessageWriter, type Message, type MessageWriter } from 'vscode-jsonrpc';
import { ProtocolErrorCodes } from '../v1/errors.js';
import { MessageTooLargeError } from './errors.js';

function isResponse(msg: Message): msg is Message & { id: number | string | null } {
  return 'id' in msg && !('method' in msg);
}

/**
 * vscode-jsonrpc writer over ndjson with the size cap enforced on the sending side:
 * an oversized response becomes a MessageTooLarge error response, an oversized request or
 * notification is refused (the request's promise rejects).
 *
 * The first message of a tick is written at once; the ones after it in the same tick (up to the
 * next `process.nextTick`) leave together in one write. Why: a kernel serving 1,000 concurrent
 * calls reached the pipe a message at a time, one system call and one wake-up of the reader per
 * message (a third of its CPU in that burst), where a bare client firing the same requests in one
 * loop got them batched by the stream for free. Deferring every message to the tick instead cost
 * a lone sequential call about 10 µs.
 */
export class NdjsonMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private batch: string[] = [];
  private waiting: { resolve: () => void; reject: (error: Error) => void }[] = [];
  /** A message went out in this tick: the next ones wait for the tick's flush. */
  private tickOpen = false;

  constructor(
    private readonly writable: Writable,
    private readonly options: { peer: string; maxMessageBytes: number },
  ) {
    super();
    writable.on('error', (error) => this.fireError(error));
    writable.on('close', () => this.fireClose());
  }

  write(msg: Message): Promise<void> {
    let text: string;
    try {
      text = JSON.stringify(msg) + '\n';
    } catch (error) {
      // Too deep or cyclic: the message is at fault, not the channel (which stays usable).
      return Promise.reject(new Error(`Unserializable: a message to ${this.options.peer} cannot be serialized: ${(error as Error)?.message ?? error}`));
    }
    const size = Buffer.byteLength(text);
    if (size > this.options.maxMessageBytes) {
      const error = new MessageTooLargeError(this.options.peer, size, this.options.maxMessageBytes, 'outgoing');
      if (!isResponse(msg)) return Promise.reject(error);
      const data = { detail: { size, limit: this.options.maxMessageBytes } };
      text = JSON.stringify({ jsonrpc: '2.0', id: msg.id, error: { code: ProtocolErrorCodes.MessageTooLarge, message: error.message, data } }) + '\n';
    }
    if (this.closed()) return Promise.reject(this.closedError());
    return new Promise((resolve, reject) => {
      if (this.tickOpen) {
        this.batch.push(text);
        this.waiting.push({ resolve, reject });
        return;
      }
      this.tickOpen = true;
      process.nextTick(this.flush);
      this.writable.write(text, 'utf8', (error) => (error ? reject(error) : resolve()));
    });
  }

  /** Bytes accepted and not yet taken by the operating system (this tick's batch included). */
  backlogBytes(): number {
    let bytes = this.writable.writableLength;
    for (const text of this.batch) bytes += text.length;
    return bytes;
  }

  /**
   * Resolves once the backlog is at most `limit` bytes, the channel closed, or `signal` aborted.
   * Why: a peer that sends requests and never reads the answers would otherwise have every
   * answer held here, without bound; a server waits on this before it starts the next one.
   */
  backlogBelow(limit: number, signal?: AbortSignal): Promise<void> {
    if (this.backlogBytes() <= limit || this.closed() || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const check = (): void => {
        if (this.backlogBytes() > limit && !this.closed() && !signal?.aborted) return;
        this.writable.off('drain', check);
        this.writable.off('close', check);
        signal?.removeEventListener('abort', check);
        resolve();
      };
      this.writable.on('drain', check);
      this.writable.on('close', check);
      signal?.addEventListener('abort', check, { once: true });
    });
  }

  end(): void {
    this.flush(); // what was accepted goes out before the end
    this.writable.end();
  }

  private readonly flush = (): void => {
    this.tickOpen = false;
    if (this.batch.length === 0) return;
    const texts = this.batch;
    const waiting = this.waiting;
    this.batch = [];
    this.waiting = [];
    if (this.closed()) {
      const error = this.closedError();
      for (const w of waiting) w.reject(error);
      return;
    }
    // Corked, the stream hands the batch to one writev; no joined string that could pass V8's
    // string length limit when many large messages share a tick.
    this.writable.cork();
    for (let i = 0; i < texts.length; i++) {
      const w = waiting[i]!;
      this.writable.write(texts[i]!, 'utf8', (error) => (error ? w.reject(error) : w.resolve()));
    }
    this.writable.uncork();
  };

  private closed(): boolean {
    return this.writable.destroyed || this.writable.writableEnded;
  }

  private closedError(): Error {
    return new Error(`the RPC channel to ${this.options.peer} is closed`);
  }
}
