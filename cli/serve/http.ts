/**
 * `pincer serve --http PORT | --socket PATH`: Streamable HTTP at `/mcp`. Every request passes
 * the guard (Host, Origin, bearer token, method, content type) before anything is allocated; only
 * a well-formed initialize, within the session cap, gets a transport and an MCP server, and a
 * session whose initialize did not reach its client is closed at once. Each session is one
 * client with its own run (see client-runs.ts), closed when idle.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { CliLogger } from '../logger.js';
import { checkRequest, type Rejection } from './http-guard.js';
import { boundPort, LOOPBACK, listen, removeSocket, type ListenTarget } from './http-listen.js';
import { HttpSessions } from './http-sessions.js';
import { readJsonBody } from './http-body.js';
import { BoundedEventStore, STREAM_RETRY_MS } from './event-store.js';

export const MCP_HTTP_PATH = '/mcp';

export interface HttpServeOptions {
  listen: ListenTarget;
  /** Required bearer token; undefined only under `--no-auth`. */
  token?: string;
  /** Browser origins allowed besides none (requests without Origin are not from a page). */
  allowedOrigins: readonly string[];
  maxSessions: number;
  idleMs: number;
  logger: CliLogger;
}

/** One client's server, with the kernel session key its calls run under. */
export interface ClientServer {
  server: Server;
  runKey: string;
}

export interface HttpEndpoint {
  /** `http://127.0.0.1:PORT/mcp` or `unix:PATH` (path `/mcp`). */
  url: string;
  /** Live sessions, for tests and logs. */
  sessions(): number;
  close(): Promise<void>;
}

export async function serveHttp(openClient: () => ClientServer, options: HttpServeOptions): Promise<HttpEndpoint> {
  const sessions = new HttpSessions(options.maxSessions, options.idleMs, options.logger);
  const origins = options.allowedOrigins.map((o) => o.toLowerCase());
  let hosts: string[] | undefined;

  const http = createServer((req, res) => {
    handle(req, res).catch((cause: Error) => {
      options.logger.error(`http ${req.method} ${req.url}: ${cause.message}`);
      if (!res.headersSent) reply(res, { status: 500, code: -32603, message: 'Internal error' });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (new URL(req.url ?? '/', 'http://localhost').pathname !== MCP_HTTP_PATH) return reply(res, { status: 404, code: -32000, message: `Not found: use ${MCP_HTTP_PATH}` });
    const rejection = checkRequest(req, { hosts, origins, token: options.token });
    if (rejection) return reply(res, rejection);
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get(sessionId);
      if (!session) return reply(res, { status: 404, code: -32001, message: 'Session not found: it expired or was closed; send a new initialize' });
      // A call in flight keeps its session; an open notification stream (GET) does not, or a vanished client would hold it forever.
      if (req.method === 'POST') sessions.track(session, res);
      else session.lastActive = Date.now();
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, { status: 400, code: -32000, message: 'Bad Request: no Mcp-Session-Id; send an initialize request first' });
    const body = await readJsonBody(req);
    if (!body.ok) return reply(res, body.rejection);
    if (!isInitializeRequest(body.value)) return reply(res, { status: 400, code: -32600, message: 'Invalid Request: without a session the only request accepted is one initialize' });
    if (!sessions.reserve()) {
      return reply(res, { status: 503, code: -32000, message: `Too many sessions: ${sessions.max} are open; close one (DELETE) or wait for idle ones to expire`, headers: { 'retry-after': '30' } });
    }
    try {
      await initialize(req, res, body.value);
    } finally {
      sessions.release();
    }
  }

  async function initialize(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const client = openClient();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      // Resumable streams: a client that lost one reconnects with Last-Event-ID and gets the rest.
      eventStore: new BoundedEventStore(),
      retryInterval: STREAM_RETRY_MS,
      onsessioninitialized: (id: string): void => sessions.add(id, transport, client.runKey),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.remove(transport.sessionId, 'closed');
    };
    // An initialize that failed, or whose answer (with the session id) never reached the client, leaves nothing behind.
    res.once('close', () => {
      if (!res.writableFinished || client.server.getClientVersion() === undefined) void transport.close().catch(() => undefined);
    });
    await client.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const address = await listen(http, options.listen);
  const port = boundPort(http);
  if (port !== undefined) {
    hosts = [`${LOOPBACK}:${port}`, `localhost:${port}`];
    // Our own origin: only this server answers at it, and it serves no pages, so no foreign page has it.
    origins.push(...hosts.map((host) => `http://${host}`));
  }
  return {
    url: port === undefined ? address : `${address}${MCP_HTTP_PATH}`,
    sessions: () => sessions.size,
    async close() {
      await sessions.closeAll();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      removeSocket(options.listen);
    },
  };
}

function reply(res: ServerResponse, rejection: Rejection): void {
  const body = JSON.stringify({ jsonrpc: '2.0', error: { code: rejection.code, message: rejection.message }, id: null });
  res.writeHead(rejection.status, { 'content-type': 'application/json', ...rejection.headers }).end(body);
}
