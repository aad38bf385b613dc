import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt, tempWorkspace } from '../cli/helpers/built-cli.js';

/** Starts `pincer serve --http 0` and resolves with the URL it logs on stderr. */
function serveHttp(cwd: string): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '0'], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`serve --http did not start:\n${stderr}`)), 20_000);
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: new URL(match[1]) });
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${stderr}`)));
  });
}

/** A raw POST with a chosen Host header (fetch does not let a caller set Host). */
function postWithHost(url: URL, host: string): Promise<number> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('error', reject);
    req.end(body);
  });
}

describe('pincer serve over Streamable HTTP on localhost', () => {
  const ws = tempWorkspace();
  let server: { child: ChildProcess; url: URL };

  beforeAll(async () => {
    ensureBuilt();
    server = await serveHttp(ws.dir);
  });
  afterAll(async () => {
    if (server?.child.exitCode === null) {
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    ws.cleanup();
  });

  it('lists tools and calls read for two independent sessions', async () => {
    for (const name of ['first', 'second']) {
      const client = new Client({ name, version: '1' });
      await client.connect(new StreamableHTTPClientTransport(server.url));
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('read');
      const result = await client.callTool({ name: 'read', arguments: { path: 'hello.txt' } });
      expect(JSON.stringify(result.content)).toContain('hello from pincer');
      await client.close();
    }
  });

  it('rejects a request whose Host header is not localhost (DNS rebinding)', async () => {
    expect(await postWithHost(server.url, 'evil.example')).toBe(403);
    expect(await postWithHost(server.url, server.url.host)).toBe(200);
  });

  it('stops, with its plugins, on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
    server.child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
