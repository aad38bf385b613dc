import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, tempWorkspace } from '../cli/helpers/built-cli.js';
import { INITIALIZE, MCP_HEADERS, connectClient, raw, startServe, type ServeProcess } from './helpers/serve-process.js';

describe('pincer serve over Streamable HTTP on localhost', () => {
  const ws = tempWorkspace();
  let server: ServeProcess;

  beforeAll(async () => {
    ensureBuilt();
    server = await startServe(ws.dir, ['--http', '0']);
  });
  afterAll(async () => {
    await server?.stop();
    ws.cleanup();
  });

  it('lists tools and calls read for two independent sessions', async () => {
    for (const name of ['first', 'second']) {
      const client = await connectClient(server, server.token, name);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('read');
      const result = await client.callTool({ name: 'read', arguments: { path: 'hello.txt' } });
      expect(JSON.stringify(result.content)).toContain('hello from pincer');
      await client.close();
    }
  });

  it('rejects a request whose Host header is not localhost (DNS rebinding)', async () => {
    const headers = { ...MCP_HEADERS, authorization: `Bearer ${server.token}` };
    expect((await raw(server, { headers: { ...headers, host: 'evil.example' }, body: INITIALIZE })).status).toBe(403);
    expect((await raw(server, { headers: { ...headers, host: server.url.host }, body: INITIALIZE })).status).toBe(200);
  });

  it('stops, with its plugins, on SIGTERM', async () => {
    expect(await server.stop()).toBe(0);
  });
});
