/**
 * `pincer serve --http/--socket` as a real child process, with what a client needs to reach it
 * (the URL and token from its stderr), raw HTTP requests that set any header (fetch refuses to
 * set Host), and a fetch over a Unix socket for the MCP SDK client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { CLI } from '../../cli/helpers/built-cli.js';

export interface ServeProcess {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT/mcp`, or `http://localhost/mcp` for a socket (see `socket`). */
  url: URL;
  socket?: string;
  token?: string;
  stderr(): string;
  stop(): Promise<number | null>;
}

export function startServe(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    return exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start:\n${stderr}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const at = / at (http:\/\/127\.0\.0\.1:\d+\/mcp|unix:\S+)/.exec(stderr);
      const auth = /Bearer token: (?:created in|read from) |WARNING: --no-auth|Authorization: Bearer (\S+)/.exec(stderr);
      if (!at || !auth) return;
      clearTimeout(timer);
      const socket = at[1].startsWith('unix:') ? at[1].slice('unix:'.length) : undefined;
      resolve({ child, url: new URL(socket ? 'http://localhost/mcp' : at[1]), socket, token: auth[1], stderr: () => stderr, stop });
    });
    child.once('exit', (code) => reject(new Error(`serve exited ${code}:\n${stderr}`)));
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request; the body is read up to the first SSE event or the end. */
export function raw(server: Pick<ServeProcess, 'url' | 'socket'>, options: { method?: string; headers?: Record<string, string>; body?: string; agent?: import('node:http').Agent }): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      { ...(server.socket ? { socketPath: server.socket } : { host: server.url.hostname, port: server.url.port }), path: server.url.pathname, method: options.method ?? 'POST', headers: options.headers, agent: options.agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
          // An SSE answer stays open for notifications; the first event is all a test needs.
          if (res.headers['content-type']?.startsWith('text/event-stream') && body.includes('\n\n')) res.destroy();
        });
        res.on('close', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.once('error', reject);
    req.end(options.body);
  });
}

export const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
export const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** An MCP SDK client connected to the server, sending `token` (if any) as a bearer token. */
export async function connectClient(server: Pick<ServeProcess, 'url' | 'socket'>, token: string | undefined, name = 'test'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(server.url, {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
    fetch: server.socket ? unixFetch(server.socket) : undefined,
  });
  const client = new Client({ name, version: '1' });
  await client.connect(transport);
  return client;
}

/** fetch over a Unix socket, enough for the SDK's Streamable HTTP client (streamed bodies included). */
export function unixFetch(socketPath: string): FetchLike {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const target = new URL(String(url));
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      const req = request({ socketPath, path: target.pathname + target.search, method: init?.method ?? 'GET', headers }, (res) => {
        const responseHeaders = new Headers();
        for (const [key, value] of Object.entries(res.headers)) if (value !== undefined) responseHeaders.set(key, Array.isArray(value) ? value.join(', ') : value);
        const status = res.statusCode ?? 500;
        const body = status === 202 || status === 204 ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        if (!body) res.resume();
        resolve(new Response(body, { status, headers: responseHeaders }));
      });
      init?.signal?.addEventListener('abort', () => req.destroy(new Error('aborted')), { once: true });
      req.once('error', reject);
      req.end(typeof init?.body === 'string' ? init.body : undefined);
    });
}
