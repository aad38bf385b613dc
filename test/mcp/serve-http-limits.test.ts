/**
 * What `pincer serve --http` spends on requests: nothing for one it refuses (counted in MCP
 * servers built and kernel subscriptions, not only memory), a bounded number of sessions, and
 * nothing left by an idle or failed session. The HTTP server is the real one, in-process over a
 * fake kernel so every allocation can be counted; the last test measures the real process.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InitializeRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CliLogger } from '../../cli/logger.js';
import { serveHttp, type HttpEndpoint, type HttpServeOptions } from '../../cli/serve/http.js';
import { createMcpServer } from '../../cli/serve/mcp-server.js';
import { ToolBridge } from '../../cli/serve/tool-bridge.js';
import { ensureBuilt, tempWorkspace } from '../cli/helpers/built-cli.js';
import { FakeKernel } from '../cli/helpers/fake-kernel.js';
import { INITIALIZE, MCP_HEADERS, connectClient, raw, startServe } from './helpers/serve-process.js';

const quiet: CliLogger = Object.assign(() => {}, { error() {}, warn() {}, info() {}, debug() {} });
const TOKEN = 'test-token-0123456789-abcdefghijklmnop';
const AUTH = { authorization: `Bearer ${TOKEN}` };

const endpoints: HttpEndpoint[] = [];
afterEach(async () => {
  await Promise.all(endpoints.splice(0).map((e) => e.close()));
});

/** The real HTTP front over a fake kernel, counting every MCP server it builds. */
async function front(kernel: FakeKernel, options: Partial<HttpServeOptions> = {}, failInitialize = false) {
  const built = { servers: 0 };
  const endpoint = await serveHttp(
    () => {
      built.servers += 1;
      const server = createMcpServer(new ToolBridge(kernel, { agentId: 'main', sessionKey: `agent:main:mcp:${built.servers}` }, quiet), { version: 'test', logger: quiet });
      if (failInitialize) server.setRequestHandler(InitializeRequestSchema, () => Promise.reject(new Error('initialize refused')));
      return { server, runKey: `agent:main:mcp:${built.servers}` };
    },
    { listen: { port: 0 }, token: TOKEN, allowedOrigins: [], maxSessions: 8, idleMs: 60_000, logger: quiet, ...options },
  );
  endpoints.push(endpoint);
  return { endpoint, built, url: new URL(endpoint.url) };
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('the HTTP front refuses cheaply and cleans up after every session', () => {
  it('allocates nothing for 10,000 refused requests: no MCP server, no subscription, bounded heap', async () => {
    const kernel = new FakeKernel();
    const { endpoint, built, url } = await front(kernel);
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const attacks: { headers: Record<string, string>; body: string; status: number }[] = [
      { headers: { 'content-type': 'text/plain' }, body: INITIALIZE, status: 401 }, // a page, no token
      { headers: { ...AUTH, 'content-type': 'text/plain', accept: MCP_HEADERS.accept }, body: INITIALIZE, status: 415 },
      { headers: { ...AUTH, ...MCP_HEADERS, origin: 'https://evil.example' }, body: INITIALIZE, status: 403 },
      { headers: { ...AUTH, ...MCP_HEADERS, host: 'evil.example' }, body: INITIALIZE, status: 403 },
      { headers: { ...AUTH, ...MCP_HEADERS }, body: '{"jsonrpc": "2.0", "id": 1,', status: 400 },
      { headers: { ...AUTH, ...MCP_HEADERS }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), status: 400 },
      { headers: { ...AUTH, ...MCP_HEADERS, 'mcp-session-id': 'made-up' }, body: INITIALIZE, status: 404 },
    ];
    const send = (i: number) => {
      const attack = attacks[i % attacks.length];
      return raw({ url }, { headers: attack.headers, body: attack.body, agent }).then((res) => expect(res.status, JSON.stringify(attack.headers)).toBe(attack.status));
    };
    for (let i = 0; i < 500; i++) await send(i); // warm up before measuring
    collectGarbage();
    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < 10_000; i += 50) await Promise.all(Array.from({ length: 50 }, (_, j) => send(i + j)));
    collectGarbage();
    const grownMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    agent.destroy();

    expect(built.servers).toBe(0);
    expect(kernel.listenerCount).toBe(0);
    expect(endpoint.sessions()).toBe(0);
    expect(grownMb).toBeLessThan(20);
  }, 120_000);

  it('answers malformed JSON with a parse error (-32700), before a session and within one', async () => {
    const { url } = await front(new FakeKernel());
    const before = await raw({ url }, { headers: { ...AUTH, ...MCP_HEADERS }, body: '{not json' });
    expect(before.status).toBe(400);
    expect(JSON.parse(before.body).error).toMatchObject({ code: -32700 });

    const init = await raw({ url }, { headers: { ...AUTH, ...MCP_HEADERS }, body: INITIALIZE });
    const within = await raw({ url }, { headers: { ...AUTH, ...MCP_HEADERS, 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-03-26' }, body: '{not json' });
    expect(within.status).toBe(400);
    expect(JSON.parse(within.body).error).toMatchObject({ code: -32700 });
  });

  it('closes a session whose initialize failed, and unsubscribes it from the kernel', async () => {
    const kernel = new FakeKernel();
    const { endpoint, built, url } = await front(kernel, {}, true);
    const init = await raw({ url }, { headers: { ...AUTH, ...MCP_HEADERS }, body: INITIALIZE });
    expect(init.body).toContain('initialize refused');
    expect(built.servers).toBe(1);
    await waitFor(() => endpoint.sessions() === 0 && kernel.listenerCount === 0, 'the failed session to close');
  });

  it('caps the number of sessions and frees a slot when a client ends its session', async () => {
    const kernel = new FakeKernel();
    const { url } = await front(kernel, { maxSessions: 2 });
    const transports = [0, 1].map(() => new StreamableHTTPClientTransport(url, { requestInit: { headers: AUTH } }));
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const clients = await Promise.all(transports.map(async (t) => (await new Client({ name: 'c', version: '1' }).connect(t), t)));
    const refused = await raw({ url }, { headers: { ...AUTH, ...MCP_HEADERS }, body: INITIALIZE });
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body).error.message).toContain('Too many sessions: 2 are open');
    expect(kernel.listenerCount).toBe(2);

    await clients[0].terminateSession();
    await waitFor(() => kernel.listenerCount === 1, 'the ended session to unsubscribe');
    expect((await raw({ url }, { headers: { ...AUTH, ...MCP_HEADERS }, body: INITIALIZE })).status).toBe(200);
    await Promise.all(clients.map((t) => t.close()));
  });

  it('expires an idle session, leaving no subscription, and tells its client it is gone', async () => {
    const kernel = new FakeKernel();
    const { endpoint, url } = await front(kernel, { idleMs: 300 });
    const client = await connectClient({ url }, TOKEN);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    expect(endpoint.sessions()).toBe(1);
    await waitFor(() => endpoint.sessions() === 0 && kernel.listenerCount === 0, 'the idle session to expire');
    await expect(client.listTools()).rejects.toThrow(/Session not found/);
    await client.close();
  });

  it('never expires a session while one of its calls is still running', async () => {
    let finish!: () => void;
    const release = new Promise<void>((resolve) => (finish = resolve));
    const kernel = new FakeKernel({ execute: async () => (await release, { content: [{ type: 'text', text: 'long call done' }] }) });
    const { endpoint, url } = await front(kernel, { idleMs: 200 });
    const client = await connectClient({ url }, TOKEN);
    const call = client.callTool({ name: 'read', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // five idle periods with the call in flight
    expect(endpoint.sessions()).toBe(1);
    finish();
    expect(JSON.stringify((await call).content)).toContain('long call done');
    await client.close();
  });
});

describe('pincer serve --http under a flood of page requests', () => {
  const ws = tempWorkspace();
  beforeAll(() => ensureBuilt());

  it('stays within bounded memory and opens no session for 10,000 text/plain POSTs', async () => {
    const server = await startServe(ws.dir, ['--http', '0']);
    try {
      const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.child.pid}/status`, 'utf8'))![1]) / 1024;
      const agent = new Agent({ keepAlive: true, maxSockets: 16 });
      const post = (headers: Record<string, string>) =>
        new Promise<number>((resolve, reject) => {
          const req = request(server.url, { method: 'POST', agent, headers: { 'content-type': 'text/plain', ...headers } }, (res) => (res.resume(), res.on('end', () => resolve(res.statusCode ?? 0))));
          req.once('error', reject);
          req.end(INITIALIZE);
        });
      for (let i = 0; i < 200; i++) await post({});
      const before = rss();
      for (let i = 0; i < 10_000; i += 50) {
        const statuses = await Promise.all(Array.from({ length: 50 }, (_, j) => post((i + j) % 2 ? { authorization: `Bearer ${server.token}` } : {})));
        expect(new Set(statuses)).toEqual(new Set([401, 415]));
      }
      agent.destroy();
      expect(rss() - before).toBeLessThan(40);
      expect(server.stderr()).not.toContain('client session');
    } finally {
      await server.stop();
      ws.cleanup();
    }
  }, 180_000);
});
