/**
 * The kernel's filtering proxy for one confined plugin: an HTTP proxy on a Unix socket that is
 * the only way out of the plugin's network namespace. It tunnels `CONNECT host:port` and
 * forwards absolute-URI requests only to destinations the plugin declared; anything else gets
 * 403 and is reported (the kernel logs and audits it, naming the plugin).
 */
import { chmodSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { ConfinedNetwork } from '../../protocol/v1/confinement.js';
import { admitsDestination } from './host-match.js';

export interface ProxyDenial {
  host: string;
  port: number;
  how: 'CONNECT' | 'request';
}

export interface PluginProxy {
  readonly socketPath: string;
  close(): Promise<void>;
}

function splitHostPort(authority: string, defaultPort: number): { host: string; port: number } {
  const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(authority);
  return { host: (m?.[1] ?? '').replace(/^\[|\]$/g, ''), port: m?.[2] ? Number(m[2]) : defaultPort };
}

export async function startPluginProxy(socketPath: string, network: ConfinedNetwork, onDenied: (d: ProxyDenial) => void): Promise<PluginProxy> {
  const deny = (res: { end: (s: string) => void }, d: ProxyDenial) => {
    onDenied(d);
    res.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\n${d.host}:${d.port} is not among the hosts this plugin declared\n`);
  };
  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end('absolute URI required\n');
      return;
    }
    const port = url.port ? Number(url.port) : 80;
    if (url.protocol !== 'http:' || !admitsDestination(network, url.hostname.replace(/^\[|\]$/g, ''), port)) {
      onDenied({ host: url.hostname, port, how: 'request' });
      res.writeHead(403, { 'content-type': 'text/plain' }).end(`${url.host} is not among the hosts this plugin declared\n`);
      return;
    }
    const upstream = http.request(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', (e) => res.headersSent ? res.destroy() : res.writeHead(502).end(`${e.message}\n`));
    req.pipe(upstream);
  });
  server.on('connect', (req, client: net.Socket, head) => {
    client.on('error', () => undefined);
    const { host, port } = splitHostPort(req.url ?? '', 443);
    if (!admitsDestination(network, host, port)) return deny({ end: (s) => client.end(s) }, { host, port, how: 'CONNECT' });
    const upstream = net.connect({ host, port }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n'));
    client.on('close', () => upstream.destroy());
  });
  rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
  chmodSync(socketPath, 0o600);
  return {
    socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
        rmSync(socketPath, { force: true });
      }),
  };
}
