/**
 * `pincer serve --http PORT`: Streamable HTTP on 127.0.0.1 only, at `/mcp`. Each client session
 * gets its own transport and `Server` (an SDK Server serves one transport) over the shared bridge.
 * Host-header checking guards against DNS rebinding, since a browser page could otherwise reach a
 * localhost server that runs tools.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer, type McpServerOptions } from './mcp-server.js';
import type { ToolBridge } from './tool-bridge.js';

export const MCP_HTTP_PATH = '/mcp';
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface HttpEndpoint {
  url: string;
  close(): Promise<void>;
}

export async function serveHttp(bridge: ToolBridge, port: number, options: McpServerOptions): Promise<HttpEndpoint> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const host = '127.0.0.1';

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((cause: Error) => {
      options.logger.error(`http ${req.method} ${req.url}: ${cause.message}`);
      if (!res.headersSent) reply(res, 500, -32603, 'Internal error');
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== MCP_HTTP_PATH) return reply(res, 404, -32000, `Not found: use ${MCP_HTTP_PATH}`);
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res);
    if (sessionId) return reply(res, 404, -32001, 'Session not found');
    if (req.method !== 'POST') return reply(res, 400, -32000, 'No session: send an initialize request first');

    const body = await readJson(req);
    if (!isInitializeRequest(body)) return reply(res, 400, -32000, 'No session: send an initialize request first');
    const allowed = [`${host}:${port}`, `localhost:${port}`, `${host}:${address().port}`, `localhost:${address().port}`];
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, transport),
      enableDnsRebindingProtection: true,
      allowedHosts: allowed,
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createMcpServer(bridge, options).connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const address = () => http.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, () => resolve());
  });
  return {
    url: `http://${host}:${address().port}${MCP_HTTP_PATH}`,
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error(`request body over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function reply(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
