/**
 * Liveness: after a call misses its deadline, one cheap `$/ping` tells a plugin that is only slow
 * (it answers) from a wedged one (it does not), which is then restarted instead of making every
 * later call wait out its full deadline.
 */
import { ErrorCodes, ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import { Ping } from '../../protocol/index.js';
import { isChannelClosed } from './channel-state.js';

/** `closed`: the channel is gone, so no answer can come; the close handler decides what follows. */
export type PingOutcome = 'answered' | 'silent' | 'closed';

// Errors vscode-jsonrpc raises locally (the write failed, the pipe closed): not an answer.
const LOCAL_FAILURES = new Set<number>([ErrorCodes.MessageWriteError, ErrorCodes.MessageReadError, ErrorCodes.PendingResponseRejected, ErrorCodes.ConnectionInactive]);

/** Sends `$/ping`; any answer counts (an old plugin's MethodNotFound too), silence for `timeoutMs` does not. Never rejects. */
export async function ping(conn: MessageConnection, timeoutMs: number): Promise<PingOutcome> {
  if (isChannelClosed(conn)) return 'closed';
  let timer: NodeJS.Timeout | undefined;
  const silence = new Promise<PingOutcome>((resolve) => {
    timer = setTimeout(() => resolve('silent'), timeoutMs);
  });
  let sent: Promise<unknown>;
  try {
    sent = conn.sendRequest(Ping.type, {});
  } catch {
    clearTimeout(timer);
    return 'closed'; // the library throws at once on a closed or disposed connection
  }
  const answer = sent.then(
    () => 'answered' as const,
    (error: unknown) => (error instanceof ResponseError && !LOCAL_FAILURES.has(error.code) ? ('answered' as const) : ('silent' as const)),
  );
  try {
    return await Promise.race([answer, silence]);
  } finally {
    clearTimeout(timer);
  }
}
