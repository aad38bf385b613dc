/**
 * Where `pincer serve` listens: TCP on 127.0.0.1 only, or a Unix socket created owner-only (mode
 * 0600). A stale socket left by a killed server is replaced; a live one, or any other file at
 * that path, is refused rather than taken over.
 */
import { once } from 'node:events';
import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { CliError } from '../errors.js';

export type ListenTarget = { port: number } | { socket: string };

export const LOOPBACK = '127.0.0.1';

/** Listens and returns how to describe the address (`http://127.0.0.1:PORT` or `unix:PATH`). */
export async function listen(http: HttpServer, target: ListenTarget): Promise<string> {
  if ('port' in target) {
    http.listen(target.port, LOOPBACK);
    await once(http, 'listening');
    return `http://${LOOPBACK}:${(http.address() as AddressInfo).port}`;
  }
  await clearStaleSocket(target.socket);
  // bind() runs synchronously inside listen(), so the socket file is born 0600: no window where others may connect.
  const previous = process.umask(0o177);
  try {
    http.listen(target.socket);
  } finally {
    process.umask(previous);
  }
  await once(http, 'listening');
  chmodSync(target.socket, 0o600);
  return `unix:${target.socket}`;
}

/** The port of a TCP listener (after `listen`), for the Host check. */
export function boundPort(http: HttpServer): number | undefined {
  const address = http.address();
  return typeof address === 'object' && address !== null ? address.port : undefined;
}

export function removeSocket(target: ListenTarget): void {
  if ('socket' in target) {
    try {
      unlinkSync(target.socket);
    } catch {
      // already gone
    }
  }
}

async function clearStaleSocket(path: string): Promise<void> {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(path).isSocket();
  } catch {
    return; // nothing there
  }
  if (!isSocket) throw socketError(path, 'a file that is not a socket is in the way; refusing to replace it');
  if (await answers(path)) throw socketError(path, 'another server is listening on it');
  unlinkSync(path);
}

function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = connect(path);
    probe.once('connect', () => (probe.destroy(), resolve(true)));
    probe.once('error', () => resolve(false));
  });
}

function socketError(path: string, why: string): CliError {
  return new CliError('USAGE', `--socket ${path}: ${why}`, { hint: 'Pick another path, or stop the server that uses it.' });
}
