/**
 * A tool plugin's side of the direct channel: one connection per backend socket, shared by
 * every call, and the request that falls back to the kernel route whenever the backend will
 * not answer directly (protocol/v1/direct-channel.ts).
 */
import net from 'node:net';
import { CancellationTokenSource, ResponseError, createMessageConnection, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  DIRECT_METHODS,
  DIRECT_SOCKET_PATH_MAX_BYTES,
  ProtocolErrorCodes,
  WORKSPACE_ERROR_CODES,
  WORKSPACE_OPERATIONS,
  createStreamTransport,
  type DirectOperation,
  type WorkspaceChannel,
  type WorkspaceErrorCode,
} from '../../protocol/index.js';
import { WorkspaceError } from '../plugin/errors.js';

/** After a socket could not be reached, its sessions go through the kernel for this long before the next try. */
export const DIRECT_RETRY_MS = 5_000;

const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined, log: () => undefined };
const connections = new Map<string, Promise<MessageConnection | undefined>>();
const unreachableUntil = new Map<string, number>();

/** `gone` runs when the connection fails or closes: the next request opens a new one. */
function open(socketPath: string, gone: () => void): Promise<MessageConnection | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    const fail = (): void => {
      gone();
      unreachableUntil.set(socketPath, Date.now() + DIRECT_RETRY_MS);
      socket.destroy();
      resolve(undefined);
    };
    socket.once('error', fail);
    socket.once('connect', () => {
      socket.off('error', fail);
      socket.on('error', () => undefined);
      // The kernel pipe decides when this process ends, never this socket.
      socket.unref();
      const transport = createStreamTransport(socket, socket, { peer: 'sandbox backend (direct channel)', maxMessageBytes: DEFAULT_MAX_MESSAGE_BYTES });
      const conn = createMessageConnection(transport.reader, transport.writer, quiet);
      const drop = (): void => {
        gone();
        socket.destroy();
      };
      conn.onClose(drop);
      conn.onError(drop);
      conn.listen();
      resolve(conn);
    });
  });
}

function connectionTo(socketPath: string): Promise<MessageConnection | undefined> | undefined {
  const conn = connections.get(socketPath);
  if (conn) return conn;
  if ((unreachableUntil.get(socketPath) ?? 0) > Date.now()) return undefined;
  // A longer path would be cut short, silently, to a name the backend does not hold.
  if (Buffer.byteLength(socketPath) > DIRECT_SOCKET_PATH_MAX_BYTES) return undefined;
  const opened = open(socketPath, () => {
    if (connections.get(socketPath) === opened) connections.delete(socketPath);
  });
  connections.set(socketPath, opened);
  return opened;
}

/** What a direct request came to: the answer, or undefined for "ask the kernel". A workspace refusal throws, as through the kernel. */
export async function directRequest(
  channel: WorkspaceChannel,
  session: string,
  op: DirectOperation,
  params: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<{ value: unknown } | undefined> {
  if (signal?.aborted) return undefined;
  const conn = await connectionTo(channel.socket);
  if (!conn) return undefined;
  const source = signal ? new CancellationTokenSource() : undefined;
  const onAbort = () => source?.cancel();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const raw = await conn.sendRequest(DIRECT_METHODS[op].type as never, { ...params, session, plugin: channel.plugin, grant: channel.grant }, source?.token);
    // As the kernel checks a backend's answer before it passes it on.
    const checked = WORKSPACE_OPERATIONS[op].result.safeParse(raw);
    return checked.success ? { value: checked.data } : undefined;
  } catch (error) {
    if (error instanceof ResponseError && error.code === ProtocolErrorCodes.WorkspaceError && !signal?.aborted) {
      const raw = (error.data as { code?: string } | undefined)?.code;
      const code = (WORKSPACE_ERROR_CODES as readonly string[]).includes(raw ?? '') ? (raw as WorkspaceErrorCode) : 'IO_ERROR';
      throw new WorkspaceError(code, error.message, { cause: error });
    }
    // DirectGrantRefused, a closed connection, a cancellation: the kernel route decides.
    return undefined;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    source?.dispose();
  }
}

/** Close every direct connection (tests; a plugin's exit closes them anyway). */
export function closeDirectConnections(): void {
  for (const conn of connections.values()) void conn.then((c) => c?.dispose());
  connections.clear();
  unreachableUntil.clear();
}
