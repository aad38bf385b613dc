/**
 * Whether a plugin connection's channel has closed (or the connection was disposed). vscode-jsonrpc
 * throws from any send on a closed connection, synchronously: a ping then rejected out of a
 * fire-and-forget probe (an unhandled rejection: the kernel process died, found by the chaos soak
 * when a plugin hung up its pipe as one of its calls missed its deadline), and a cancel logged the
 * library's error to the console. Senders ask here first.
 */
import type { MessageConnection } from 'vscode-jsonrpc/node';

const states = new WeakMap<MessageConnection, { closed: boolean }>();

/** Starts tracking `conn` (idempotent); call it before the channel can close, when the connection is made. */
export function watchChannel(conn: MessageConnection): void {
  if (states.has(conn)) return;
  const state = { closed: false };
  states.set(conn, state);
  conn.onClose(() => void (state.closed = true));
  conn.onDispose(() => void (state.closed = true));
}

/** True once the tracked connection closed or was disposed (false for one never watched). */
export function isChannelClosed(conn: MessageConnection): boolean {
  return states.get(conn)?.closed ?? false;
}
