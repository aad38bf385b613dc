/**
 * A backend plugin's direct channel: a Unix socket where tool plugins send read-only workspace
 * requests (`direct/*`) for sessions the kernel granted them, so a read crosses two process
 * hops instead of four (protocol/v1/direct-channel.ts says what is sent and why it is as safe).
 *
 * This module owns the socket and the connections; what a request may do is decided by the
 * `serve` callback (grant check, the session's handler, the refusal report).
 */
import { mkdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ResponseError, createMessageConnection, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc/node';
import { DEFAULT_MAX_MESSAGE_BYTES, DIRECT_METHODS, DIRECT_SOCKET_PATH_MAX_BYTES, DIRECT_OPERATIONS, MAX_UNREAD_ANSWER_BYTES, ProtocolErrorCodes, createStreamTransport, type DirectOperation } from '../../protocol/index.js';

/** Connections one socket keeps open at once; a plugin needs one, so this only stops a flood. */
export const DIRECT_MAX_CONNECTIONS = 64;
/** Requests one connection may have in flight; more are refused (and go through the kernel, which has its own limit, 16). */
export const DIRECT_MAX_IN_FLIGHT = 16;

export type DirectServe = (op: DirectOperation, raw: Record<string, unknown>, token: CancellationToken) => Promise<unknown>;

const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined, log: () => undefined };

export const directRefusal = (why: string): ResponseError<never> => new ResponseError(ProtocolErrorCodes.DirectGrantRefused, why);

export class DirectChannelServer {
  readonly #serve: DirectServe;
  /** Socket path → the server listening there (or the failure to). */
  readonly #listening = new Map<string, Promise<net.Server | undefined>>();
  readonly #connections = new Set<MessageConnection>();
  #closed = false;

  constructor(serve: DirectServe) {
    this.#serve = serve;
  }

  /**
   * Listen at `socketPath` (once; later calls share the answer). False when it cannot: the
   * sessions are then served through the kernel only, which is slower and nothing else.
   */
  async listen(socketPath: string): Promise<boolean> {
    if (this.#closed) return false;
    let server = this.#listening.get(socketPath);
    if (!server) {
      server = this.#open(socketPath);
      this.#listening.set(socketPath, server);
    }
    return (await server) !== undefined;
  }

  #open(socketPath: string): Promise<net.Server | undefined> {
    return new Promise((resolve) => {
      // A longer path would be cut short, silently, to a name that is not ours.
      if (Buffer.byteLength(socketPath) > DIRECT_SOCKET_PATH_MAX_BYTES) {
        resolve(undefined);
        return;
      }
      try {
        // The kernel made the directory ours; a socket left by our previous process would refuse the bind.
        mkdirSync(path.dirname(socketPath), { recursive: true, mode: 0o700 });
        rmSync(socketPath, { force: true });
      } catch {
        resolve(undefined);
        return;
      }
      const server = net.createServer((socket) => this.#accept(socket));
      server.maxConnections = DIRECT_MAX_CONNECTIONS;
      server.once('error', () => resolve(undefined));
      server.listen(socketPath, () => {
        server.removeAllListeners('error');
        server.on('error', () => undefined);
        resolve(server);
      });
      server.unref();
    });
  }

  #accept(socket: net.Socket): void {
    if (this.#closed) {
      socket.destroy();
      return;
    }
    socket.on('error', () => undefined);
    const transport = createStreamTransport(socket, socket, { peer: 'direct-channel client', maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES });
    const conn = createMessageConnection(transport.reader, transport.writer, quiet);
    let inFlight = 0;
    // A client that sends and never reads: stop reading it while its answers pile up unread
    // (refusals included), and start nothing new for it until it has read them.
    let paused = false;
    const holdReading = (): void => {
      if (paused || socket.destroyed || socket.writableLength <= MAX_UNREAD_ANSWER_BYTES) return;
      paused = true;
      socket.pause();
      void transport.backlogBelow!(MAX_UNREAD_ANSWER_BYTES).then(() => {
        paused = false;
        if (!socket.destroyed) socket.resume();
      });
    };
    for (const op of DIRECT_OPERATIONS) {
      conn.onRequest(DIRECT_METHODS[op].type as never, async (raw: unknown, token: CancellationToken) => {
        holdReading();
        if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return directRefusal('params must be an object');
        if (inFlight >= DIRECT_MAX_IN_FLIGHT) return directRefusal('too many direct requests in flight on this connection');
        inFlight++;
        try {
          await transport.backlogBelow!(MAX_UNREAD_ANSWER_BYTES);
          return await this.#serve(op, raw as Record<string, unknown>, token);
        } finally {
          inFlight--;
          setImmediate(holdReading); // the answer is written by then
        }
      });
    }
    // A framing error or anything the connection cannot survive ends it; the client reconnects or goes through the kernel.
    conn.onError(() => socket.destroy());
    conn.onClose(() => {
      this.#connections.delete(conn);
      socket.destroy();
    });
    this.#connections.add(conn);
    conn.listen();
  }

  /** Stop listening and drop every connection (shutdown). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const conn of this.#connections) conn.dispose();
    this.#connections.clear();
    const servers = await Promise.all(this.#listening.values());
    this.#listening.clear();
    await Promise.all(servers.map((server) => (server ? new Promise<void>((resolve) => server.close(() => resolve())) : undefined)));
  }
}
