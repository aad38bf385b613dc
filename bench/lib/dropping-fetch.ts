/**
 * A fetch for the MCP SDK client that can drop a call's stream the way a flaky network does: the
 * SSE answer of a POST is cut (the connection aborted, the reader errored) right after its first
 * event, the priming one that carries an event id, so the client reconnects with Last-Event-ID
 * and must get the answer from the server's replay, once.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

export function droppingFetch(shouldDrop: () => boolean, onDrop: () => void): FetchLike {
  return async (url, init) => {
    const cut = new AbortController();
    const signal = init?.signal ? AbortSignal.any([init.signal, cut.signal]) : cut.signal;
    const response = await fetch(url, { ...init, signal });
    const sse = response.headers.get('content-type')?.startsWith('text/event-stream');
    if ((init?.method ?? 'GET') !== 'POST' || !sse || !response.body || !shouldDrop()) return response;
    const reader = response.body.getReader();
    let chunks = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // The first chunk goes through (erroring now would discard it, priming event and all);
        // the stream breaks at the next read, whatever is still on its way.
        if (chunks > 0) {
          onDrop();
          cut.abort();
          controller.error(new TypeError('network error: the load test dropped this stream'));
          return;
        }
        const { value, done } = await reader.read();
        if (done) return controller.close();
        chunks += 1;
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
