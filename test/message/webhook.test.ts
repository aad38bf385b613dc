import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Kernel } from '../../kernel/index.js';
import { FAST, errorCode, pluginModule, startKernel, textOf } from './helpers.js';

const SECRET = 'test-secret-0123456789abcdef';

type Behaviour = number | 'hang';
interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP endpoint whose answers a test scripts: a status per request, or a hang. */
function endpoint() {
  const received: Received[] = [];
  let script: Behaviour[] = [];
  const hanging: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const next = script.shift() ?? 200;
      if (next === 'hang') return void hanging.push(res);
      res.writeHead(next, { 'content-type': 'application/json' });
      res.end(next < 300 ? JSON.stringify({ id: `srv-${received.length}` }) : JSON.stringify({ error: 'boom' }));
    });
  });
  return {
    received,
    hanging,
    script: (behaviours: Behaviour[]) => {
      script = [...behaviours];
      received.length = 0;
    },
    listen: () => new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port))),
    close: () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function closedPort(): Promise<number> {
  const probe = http.createServer();
  const port = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as AddressInfo).port)));
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function verifies(request: Received): boolean {
  const timestamp = String(request.headers['x-pincer-timestamp']);
  const expected = `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.${request.body}`).digest('hex')}`;
  return request.headers['x-pincer-signature'] === expected;
}

describe('the webhook channel against a real HTTP endpoint', () => {
  const server = endpoint();
  let kernel: Kernel;
  const retry = { timeoutMs: 500, retries: 2, backoffMs: 20, maxBackoffMs: 100 };

  beforeAll(async () => {
    const port = await server.listen();
    const dead = await closedPort();
    const webhook = (id: string, settings: Record<string, unknown>) => ({ id, module: pluginModule('channel-webhook'), settings: { secret: SECRET, ...retry, ...settings }, timeouts: FAST });
    kernel = await startKernel({
      plugins: [
        webhook('hook', { url: `http://127.0.0.1:${port}/hook` }),
        webhook('hook-dead', { channel: 'dead', url: `http://127.0.0.1:${dead}/hook` }),
        webhook('hook-small', { channel: 'small', url: `http://127.0.0.1:${port}/hook`, maxBodyBytes: 2048 }),
      ],
      tools: { profile: 'messaging' },
    });
  });
  afterAll(async () => {
    await kernel.stop();
    await server.close();
  });
  beforeEach(() => server.script([]));

  const send = (channel: string, message: string, toolCallId = `c-${Math.random()}`) =>
    kernel.assembleTools({ channel, sessionKey: 'agent:main:support' }).execute('message', { action: 'send', to: 'oncall', message }, { toolCallId });

  it('POSTs the message signed with an HMAC header the receiver can verify', async () => {
    const result = await send('webhook', 'deploy done');
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('Delivered: "send" on channel "webhook" (message id srv-1)');
    const [request] = server.received;
    expect(verifies(request)).toBe(true);
    expect(JSON.parse(request.body)).toMatchObject({ channel: 'webhook', action: 'send', to: 'oncall', message: 'deploy done', source: { sessionKey: 'agent:main:support', crossSession: false } });
    // A tampered body no longer verifies.
    expect(verifies({ ...request, body: request.body.replace('deploy done', 'deploy undone') })).toBe(false);
  });

  it('retries a 500 with backoff, with the same delivery id on every attempt, and delivers once the endpoint recovers', async () => {
    server.script([500, 503, 200]);
    const result = await send('webhook', 'third time lucky');
    expect(result.isError).toBeFalsy();
    expect(result.details).toMatchObject({ attempts: 3, status: 'delivered' });
    expect(server.received).toHaveLength(3);
    expect(new Set(server.received.map((r) => r.headers['x-pincer-delivery'])).size).toBe(1);
    expect(server.received.map((r) => r.headers['x-pincer-attempt'])).toEqual(['1', '2', '3']);
    expect(server.received.every(verifies)).toBe(true);
  });

  it('reports an endpoint that keeps answering 500 as delivery unknown, never as failed', async () => {
    server.script([500, 500, 500]);
    const result = await send('webhook', 'into the void');
    expect(errorCode(result)).toBe('DELIVERY_UNKNOWN');
    expect(textOf(result)).toContain('delivery unknown');
    expect(textOf(result)).toContain('HTTP 500');
    expect(textOf(result)).not.toMatch(/fail/i);
    expect(server.received).toHaveLength(3);
  });

  it('reports an endpoint that hangs as delivery unknown once its attempts time out', async () => {
    server.script(['hang', 'hang', 'hang']);
    const result = await send('webhook', 'are you there');
    expect(errorCode(result)).toBe('DELIVERY_UNKNOWN');
    expect(textOf(result)).toContain('no answer within 500 ms after connecting');
    expect(server.received).toHaveLength(3);
  });

  it('reports an outright refusal (4xx) as not delivered, without retrying', async () => {
    server.script([400]);
    const result = await send('webhook', 'bad request');
    expect(errorCode(result)).toBe('NOT_DELIVERED');
    expect(textOf(result)).toContain('HTTP 400');
    expect(server.received).toHaveLength(1);
  });

  it('keeps "delivery unknown" when a refusal follows an attempt that may have arrived', async () => {
    server.script([500, 400]);
    const result = await send('webhook', 'maybe twice');
    expect(errorCode(result)).toBe('DELIVERY_UNKNOWN');
  });

  it('reports an endpoint it never reached as not delivered', async () => {
    const result = await send('dead', 'nobody home');
    expect(errorCode(result)).toBe('NOT_DELIVERED');
    expect(textOf(result)).toContain('could not connect');
    expect(result.details).toMatchObject({ attempts: 3 });
  });

  it('refuses a body over its limit before any request is made', async () => {
    const result = await send('small', 'y'.repeat(5000));
    expect(errorCode(result)).toBe('NOT_DELIVERED');
    expect(textOf(result)).toContain('this webhook sends at most 2048');
    expect(server.received).toHaveLength(0);
  });
});

describe('webhook settings', () => {
  it('refuses to start without a signing secret, naming the setting', async () => {
    const kernel = await startKernel({ plugins: [{ id: 'hook', module: pluginModule('channel-webhook'), settings: { url: 'http://127.0.0.1:1/x' }, timeouts: FAST }] });
    try {
      const [status] = kernel.plugins();
      expect(status.state).toBe('failed');
      expect(status.lastError?.message).toContain('give exactly one of "secret" and "secretFile"');
    } finally {
      await kernel.stop();
    }
  });
});
