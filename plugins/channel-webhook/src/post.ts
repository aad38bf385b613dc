/**
 * One POST attempt, and what it proves. Before the connection is established nothing can have
 * reached the endpoint; after it, a request without a success answer may have been processed.
 * That distinction is what lets the channel say "not delivered" only when it is true.
 */
import http from 'node:http';
import https from 'node:https';

export type AttemptOutcome =
  | { kind: 'delivered'; status: number; messageId?: string }
  /** The endpoint answered and refused (3xx, 4xx but 408/429): final, and it did not accept the message. */
  | { kind: 'rejected'; status: number; detail: string }
  /** Worth another attempt. `reached`: the request may have been received. */
  | { kind: 'retry'; reached: boolean; detail: string; retryAfterMs?: number };

const MAX_RESPONSE_BYTES = 64 * 1024;

function retryAfter(header: string | undefined): number | undefined {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : undefined;
}

function messageIdOf(body: string, header: string | string[] | undefined): string | undefined {
  if (typeof header === 'string' && header) return header.slice(0, 200);
  try {
    const id = (JSON.parse(body) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? String(id).slice(0, 200) : undefined;
  } catch {
    return undefined;
  }
}

export function postOnce(url: URL, headers: Record<string, string>, body: string, timeoutMs: number, signal?: AbortSignal): Promise<AttemptOutcome> {
  return new Promise((resolve) => {
    let connected = false;
    let settled = false;
    const done = (outcome: AttemptOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const client = url.protocol === 'https:' ? https : http;
    // A fresh socket per attempt: a reused one would hide whether this request connected.
    const request = client.request(url, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false });
    const fail = (detail: string): void => {
      request.destroy();
      done({ kind: 'retry', reached: connected, detail });
    };
    const timer = setTimeout(() => fail(`no answer within ${timeoutMs} ms${connected ? ' after connecting' : ' (could not connect)'}`), timeoutMs);
    const onAbort = (): void => fail('cancelled');
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('socket', (socket) => {
      socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => (connected = true));
    });
    request.on('error', (error) => done({ kind: 'retry', reached: connected, detail: `${connected ? '' : 'could not connect: '}${error.message}` }));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_RESPONSE_BYTES) chunks.push(chunk);
      });
      response.on('error', () => undefined);
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        const text = Buffer.concat(chunks).toString('utf8');
        if (status >= 200 && status < 300) return done({ kind: 'delivered', status, messageId: messageIdOf(text, response.headers['x-message-id']) });
        const detail = `HTTP ${status}${text.trim() ? `: ${text.trim().slice(0, 200)}` : ''}`;
        if (status >= 300 && status < 500 && status !== 408 && status !== 429) return done({ kind: 'rejected', status, detail });
        done({ kind: 'retry', reached: true, detail, retryAfterMs: retryAfter(response.headers['retry-after'] as string | undefined) });
      });
    });
    if (signal?.aborted) return onAbort();
    request.end(body);
  });
}
