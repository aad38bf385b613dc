/**
 * Attacks on `pincer serve --http` from another local process or a web page: no token, a wrong
 * token, a foreign Origin, a stolen session id. Each must be refused before any tool runs; the
 * real MCP SDK client with the token gets through.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, tempWorkspace } from '../cli/helpers/built-cli.js';
import { INITIALIZE, MCP_HEADERS, connectClient, raw, startServe, type ServeProcess } from './helpers/serve-process.js';

beforeAll(() => ensureBuilt());

const running: ServeProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});
async function serve(cwd: string, args: string[]): Promise<ServeProcess> {
  const server = await startServe(cwd, args);
  running.push(server);
  return server;
}

/** A raw tools/call of exec that would create `marker` in the workspace. */
function execCall(marker: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'exec', arguments: { command: `touch ${marker}` } } });
}

/** A session opened with the token (as a legitimate client would), for the attacks to reuse. */
async function openSession(server: ServeProcess): Promise<Record<string, string>> {
  const init = await raw(server, { headers: { ...MCP_HEADERS, authorization: `Bearer ${server.token}` }, body: INITIALIZE });
  expect(init.status).toBe(200);
  return { ...MCP_HEADERS, 'mcp-session-id': String(init.headers['mcp-session-id']), 'mcp-protocol-version': '2025-03-26' };
}

describe('pincer serve --http refuses callers without the token or from a web page', () => {
  const ws = tempWorkspace();
  afterAll(() => ws.cleanup());

  it('refuses a request without a token, or with a wrong one, before it opens a session', async () => {
    const server = await serve(ws.dir, ['--http', '0']);
    const none = await raw(server, { headers: MCP_HEADERS, body: INITIALIZE });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const wrong = await raw(server, { headers: { ...MCP_HEADERS, authorization: `Bearer ${'x'.repeat(server.token!.length)}` }, body: INITIALIZE });
    expect(wrong.status).toBe(401);
    expect(server.stderr()).not.toContain('client session');
    await expect(connectClient(server, undefined)).rejects.toThrow();
  });

  it('never runs exec for a session id without the token, or for a page of another origin', async () => {
    const server = await serve(ws.dir, ['--http', '0']);
    const session = await openSession(server);
    const stolen = await raw(server, { headers: session, body: execCall('stolen') });
    expect(stolen.status).toBe(401);
    const page = await raw(server, { headers: { ...session, authorization: `Bearer ${server.token}`, origin: 'https://evil.example' }, body: execCall('page') });
    expect(page.status).toBe(403);
    expect(JSON.parse(page.body).error.message).toContain('Origin not allowed: https://evil.example');
    // The same call with the token and no Origin runs, so the two refusals above are the guard's doing.
    const legit = await raw(server, { headers: { ...session, authorization: `Bearer ${server.token}` }, body: execCall('legit') });
    expect(legit.status).toBe(200);
    await waitFor(() => existsSync(join(ws.dir, 'legit')));
    expect(existsSync(join(ws.dir, 'stolen'))).toBe(false);
    expect(existsSync(join(ws.dir, 'page'))).toBe(false);
  });

  it('serves the MCP SDK client that sends the token, and an origin allowed by name', async () => {
    const server = await serve(ws.dir, ['--http', '0', '--allow-origin', 'http://localhost:6274']);
    const client = await connectClient(server, server.token);
    const result = await client.callTool({ name: 'read', arguments: { path: 'hello.txt' } });
    expect(JSON.stringify(result.content)).toContain('hello from pincer');
    await client.close();
    const allowed = await raw(server, { headers: { ...MCP_HEADERS, authorization: `Bearer ${server.token}`, origin: 'http://localhost:6274' }, body: INITIALIZE });
    expect(allowed.status).toBe(200);
  });

  it('keeps the token in an owner-only --token-file, reuses it, and never prints it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pincer-token-'));
    const file = join(dir, 'serve.token');
    try {
      const first = await serve(ws.dir, ['--http', '0', '--token-file', file]);
      const token = readFileSync(file, 'utf8').trim();
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(first.stderr()).not.toContain(token);
      expect(first.stderr()).toContain(`Bearer token: created in ${file}`);
      expect((await raw(first, { headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` }, body: INITIALIZE })).status).toBe(200);
      await first.stop();

      const second = await serve(ws.dir, ['--http', '0', '--token-file', file]);
      expect(second.stderr()).toContain(`Bearer token: read from ${file}`);
      expect((await raw(second, { headers: { ...MCP_HEADERS, authorization: `Bearer ${token}` }, body: INITIALIZE })).status).toBe(200);

      const loose = join(dir, 'loose.token');
      writeFileSync(loose, `${'a'.repeat(40)}\n`, { mode: 0o644 });
      await expect(startServe(ws.dir, ['--http', '0', '--token-file', loose])).rejects.toThrow(/others may read it \(mode 644\)/);
      // A symlink swapped in where the token file was must not hand the server a token someone else wrote.
      const link = join(dir, 'link.token');
      symlinkSync(file, link);
      await expect(startServe(ws.dir, ['--http', '0', '--token-file', link])).rejects.toThrow(/link\.token: it is a symbolic link/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs without a token only under --no-auth, says so loudly, and still checks Origin', async () => {
    const server = await serve(ws.dir, ['--http', '0', '--no-auth']);
    expect(server.stderr()).toContain('WARNING: --no-auth: no bearer token is required');
    expect((await raw(server, { headers: MCP_HEADERS, body: INITIALIZE })).status).toBe(200);
    expect((await raw(server, { headers: { ...MCP_HEADERS, origin: 'https://evil.example' }, body: INITIALIZE })).status).toBe(403);
  });

  it('serves a Unix socket that only its owner may open, with the token', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pincer-sock-'));
    try {
      const server = await serve(ws.dir, ['--socket', join(dir, 'mcp.sock')]);
      const mode = statSync(server.socket!).mode;
      expect(mode & 0o777).toBe(0o600);
      expect((await raw(server, { headers: MCP_HEADERS, body: INITIALIZE })).status).toBe(401);
      const client = await connectClient(server, server.token);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('read');
      await client.close();
      await server.stop();
      expect(existsSync(server.socket!)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
