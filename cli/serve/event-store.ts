/**
 * The event store that makes `pincer serve --http` streams resumable: every SSE event is kept
 * (per session, bounded in count and bytes) so a client that lost its stream reconnects with
 * `Last-Event-ID` and gets the rest, the result of a long call included. The transport sends a
 * priming event and a `retry` interval when a store is present.
 */
import type { EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export const MAX_STORED_EVENTS = 1_000;
export const MAX_STORED_BYTES = 16 * 1024 * 1024;
/** What clients are told to wait before reconnecting a dropped stream. */
export const STREAM_RETRY_MS = 1_000;

interface Stored {
  streamId: string;
  message: JSONRPCMessage;
  bytes: number;
}

export class BoundedEventStore implements EventStore {
  readonly #events = new Map<string, Stored>();
  #bytes = 0;
  #counter = 0;

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = `${streamId}_${(++this.#counter).toString(36).padStart(8, '0')}`;
    const bytes = JSON.stringify(message).length;
    this.#events.set(eventId, { streamId, message, bytes });
    this.#bytes += bytes;
    // Oldest first: a client that stayed away too long gets what is left.
    while (this.#events.size > MAX_STORED_EVENTS || this.#bytes > MAX_STORED_BYTES) {
      const [oldest, stored] = this.#events.entries().next().value as [string, Stored];
      this.#events.delete(oldest);
      this.#bytes -= stored.bytes;
    }
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.#events.get(eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const streamId = this.#events.get(lastEventId)?.streamId ?? lastEventId.slice(0, lastEventId.lastIndexOf('_'));
    let after = false;
    for (const [eventId, stored] of this.#events) {
      if (eventId === lastEventId) after = true;
      else if (after && stored.streamId === streamId) await send(eventId, stored.message);
    }
    return streamId;
  }
}
