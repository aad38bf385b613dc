/**
 * `pincer serve --http` streams are resumable: a client that loses the stream of a running
 * `tools/call` reconnects with Last-Event-ID and receives the result. And a cancelled call stops
 * its command.
 */
import { hostPidOfSleep } from '../helpers/host-pid.js';
import { request } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, tempWorkspace } from '../cli/helpers/built-cli.js';
import { connectClient, MCP_HEADERS, raw, startServe, type ServeProcess } from './helpers/serve-process.js';

beforeAll(() => ensureBuilt());
const ws = tempWorkspace();
let server: ServeProcess;
beforeAll(async () => {
  server = await startServe(ws.dir, ['--http', '0', '--no-auth']);
});
afterAll(async () => {
  await server?.stop();
  ws.cleanup();
});

const INIT = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'resume', version: '1' } } });

/** Reads an SSE response until `until` appears in the body (or the deadline). */
function readStream(headers: Record<string, string>, until: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: server.url.hostname, port: server.url.port, path: '/mcp', method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (body.includes(until)) {
          res.destroy();
          resolve(body);
        }
      });
      res.on('close', () => resolve(body));
    });
    req.setTimeout(30_000, () => req.destroy(new Error('no event in time')));
    req.once('error', reject);
    req.end();
  });
}

describe('resumable streams', () => {
  it('primes each stream with an event id and a retry interval, and replays the result after a reconnect', async () => {
    const init = await raw(server, { headers: MCP_HEADERS, body: INIT });
    const session = init.headers['mcp-session-id'] as string;
    expect(session).toBeTruthy();
    const headers = { ...MCP_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await raw(server, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    // The call's stream: read the priming event, then drop the connection while the command runs.
    const call = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'exec', arguments: { command: 'sleep 1; echo resumed-ok' } } });
    const first = await raw(server, { headers, body: call });
    const primed = /id: (\S+)\nretry: (\d+)/.exec(first.body);
    expect(primed, first.body).not.toBeNull();
    expect(Number(primed![2])).toBe(1000);
    const rest = await readStream({ accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', 'last-event-id': primed![1] }, 'resumed-ok');
    expect(rest).toContain('"id":7');
    expect(rest).toContain('resumed-ok');
  });
});

describe('origins', () => {
  it('accepts a request from the server’s own loopback origin (no other page can have it), still refusing others', async () => {
    const own = await raw(server, { headers: { ...MCP_HEADERS, origin: `http://127.0.0.1:${server.url.port}` }, body: INIT });
    expect(own.status).toBe(200);
    const other = await raw(server, { headers: { ...MCP_HEADERS, origin: `http://127.0.0.1:${Number(server.url.port) + 1}` }, body: INIT });
    expect(other.status).toBe(403);
  });
});

describe('cancellation', () => {
  it('kills the command of a cancelled tools/call', async () => {
    const client = await connectClient(server, undefined, 'cancel');
    // The command may run in its own PID namespace: find its host pid by a unique marker.
    const marker = `300.${process.pid}5`;
    const abort = new AbortController();
    const call = client.callTool({ name: 'exec', arguments: { command: `exec sleep ${marker}` } }, undefined, { signal: abort.signal }).catch((e: Error) => e);
    const until = Date.now() + 20_000;
    let pid: number | undefined;
    while ((pid = hostPidOfSleep(marker)) === undefined) {
      if (Date.now() > until) throw new Error('the command never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    abort.abort();
    expect(String(await call)).toMatch(/abort|cancel/i);
    const alive = () => {
      try {
        process.kill(pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    while (alive()) {
      if (Date.now() > until + 20_000) throw new Error(`the command (pid ${pid}) outlived its cancelled call`);
      await new Promise((r) => setTimeout(r, 100));
    }
    await client.close();
  });
});
