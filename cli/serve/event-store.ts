/**
 * The event store that makes `pincer serve --http` streams resumable: SSE events are kept per
 * session so a client that lost a stream reconnects with `Last-Event-ID` and gets the rest, the
 * result of a long call included. The transport sends a priming event and a `retry` interval
 * when a store is present.
 *
 * What is kept: every event of a stream still in flight (no answer yet), and a completed stream's
 * events for `retainCompletedMs` after its answer was stored, long enough for a client that lost
 * the stream to come back (it is told to retry after 1 s). Keeping completed streams until a
 * count cap instead made a busy session's memory grow for minutes with answers its client had
 * long read (100 sessions at 4 calls/s: about 1 MB per session before the cap). The count and
 * byte caps stay as the bound of last resort, oldest first.
 */
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const MAX_STORED_EVENTS = 1_000;
export const MAX_STORED_BYTES = 16 * 1024 * 1024;
/** What clients are told to wait before reconnecting a dropped stream. */
export const STREAM_RETRY_MS = 1_000;
/** How long a completed stream stays replayable. */
export const RETAIN_COMPLETED_MS = 30_000;

interface Stored {
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

/** A JSON-RPC answer (result or error): the end of the request stream it is stored on. */
function isAnswer(message: JSONRPCMessage): boolean {
  return 'id' in message && !('method' in message) && ('result' in message || 'error' in message);
}

export class BoundedEventStore implements EventStore {
  readonly #events = new Map<string, Stored>();
  /** Event ids per stream, oldest first. */
  readonly #streams = new Map<string, string[]>();
  /** Completed streams by when their answer was stored, oldest first. */
  readonly #completed = new Map<string, number>();
  #bytes = 0;
  #counter = 0;

  constructor(private readonly options: { retainCompletedMs?: number; now?: () => number } = {}) {}

  get size(): number {
    return this.#events.size;
  }

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const now = this.options.now?.() ?? Date.now();
    this.#expireCompleted(now);
    const eventId = `${streamId}_${(++this.#counter).toString(36).padStart(8, '0')}`;
    const bytes = JSON.stringify(message).length;
    this.#events.set(eventId, { streamId, message, bytes });
    this.#bytes += bytes;
    const ids = this.#streams.get(streamId);
    if (ids) ids.push(eventId);
    else this.#streams.set(streamId, [eventId]);
    if (isAnswer(message)) {
      this.#completed.delete(streamId); // re-inserted: the map stays in completion order
      this.#completed.set(streamId, now);
    }
    // Oldest first: a client that stayed away too long gets what is left.
    while (this.#events.size > MAX_STORED_EVENTS || this.#bytes > MAX_STORED_BYTES) {
      const [oldest, stored] = this.#events.entries().next().value as [string, Stored];
      this.#drop(oldest, stored);
      const rest = this.#streams.get(stored.streamId);
      rest?.shift();
      if (rest?.length === 0) this.#forgetStream(stored.streamId);
    }
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const streamId = this.#events.get(lastEventId)?.streamId ?? lastEventId.slice(0, lastEventId.lastIndexOf('_'));
    // Ids grow with the counter, so "after" is a comparison even when the last one was dropped.
    for (const eventId of [...(this.#streams.get(streamId) ?? [])]) {
      const stored = this.#events.get(eventId);
      if (stored && eventId > lastEventId) await send(eventId, stored.message);
    }
    return streamId;
  }

  #expireCompleted(now: number): void {
    const retain = this.options.retainCompletedMs ?? RETAIN_COMPLETED_MS;
    for (const [streamId, at] of this.#completed) {
      if (now - at < retain) break; // oldest first: the rest are younger
      for (const eventId of this.#streams.get(streamId) ?? []) {
        const stored = this.#events.get(eventId);
        if (stored) this.#drop(eventId, stored);
      }
      this.#forgetStream(streamId);
    }
  }

  #drop(eventId: string, stored: Stored): void {
    this.#events.delete(eventId);
    this.#bytes -= stored.bytes;
  }

  #forgetStream(streamId: string): void {
    this.#streams.delete(streamId);
    this.#completed.delete(streamId);
  }
}
