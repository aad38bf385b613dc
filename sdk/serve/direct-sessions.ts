/**
 * The backend side of the direct channel: which prepared sessions it serves, and what a
 * `direct/*` request must carry to be served (protocol/v1/direct-channel.ts).
 *
 * A request is served only for a session whose last `sandbox/prepare` named a direct channel,
 * with the grant that prepare's secret makes for the plugin it names; it then runs the very
 * handler a kernel-routed request runs, path guard included. A workspace refusal is reported
 * to the kernel and answered once the kernel has it on record; anything else (no grant, bad
 * params, a failure that is not a refusal) is answered DirectGrantRefused, and the plugin asks
 * the kernel instead, which records what it decides.
 */
import { ResponseError, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  DIRECT_OPERATIONS,
  ProtocolErrorCodes,
  SandboxDirectFailure,
  WORKSPACE_OPERATIONS,
  verifyDirectGrant,
  type DirectOperation,
} from '../../protocol/index.js';
import { WorkspaceError } from '../plugin/errors.js';
import type { HandlerContext, SandboxBackendDefinition, SandboxOperationContext } from '../plugin/types.js';
import type { CallSignal } from './call-signal.js';
import { DirectChannelServer, directRefusal } from './direct-server.js';

interface DirectSession {
  secret: string;
  /** plugin → the grant already verified for it (a grant is verified once per prepare). */
  verified: Map<string, string>;
}

export interface DirectSessions {
  /** Stop serving the session directly (a new prepare or a release). */
  forget(session: string): void;
  /** Serve the prepared session on `channel` too; false when this backend cannot (then only the kernel route serves it). */
  offer(session: string, channel: { socket: string; secret: string }): Promise<boolean>;
}

export function directChannel(
  conn: MessageConnection,
  sessions: ReadonlyMap<string, SandboxBackendDefinition>,
  ctxFor: (token: CancellationToken) => { call: CallSignal; ctx: HandlerContext },
  shutdown: AbortSignal,
): DirectSessions {
  const served = new Map<string, DirectSession>();
  let server: DirectChannelServer | undefined;

  const granted = (session: unknown, plugin: unknown, grant: unknown): session is string => {
    if (typeof session !== 'string' || typeof plugin !== 'string' || typeof grant !== 'string') return false;
    const entry = served.get(session);
    if (!entry) return false;
    if (entry.verified.get(plugin) === grant) return true;
    if (!verifyDirectGrant(entry.secret, session, plugin, grant)) return false;
    entry.verified.set(plugin, grant);
    return true;
  };

  const serve = async (op: DirectOperation, raw: Record<string, unknown>, token: CancellationToken): Promise<unknown> => {
    const { session, plugin } = raw;
    if (!granted(session, plugin, raw.grant)) return directRefusal('this backend holds no grant like that for the session; send the request through the kernel');
    const handler = sessions.get(session)?.operations[op] as ((p: unknown, c: SandboxOperationContext) => unknown) | undefined;
    if (!handler) return directRefusal(`this backend does not serve ${op} for the session`);
    const parsed = WORKSPACE_OPERATIONS[op].params.safeParse(raw);
    if (!parsed.success) return directRefusal(`invalid direct/${op} params; send the request through the kernel`);
    const { call, ctx } = ctxFor(token);
    try {
      return (await handler({ ...parsed.data, session }, ctx)) ?? null;
    } catch (error) {
      if (!(error instanceof WorkspaceError) || call.aborted) return directRefusal(`direct/${op} failed; send the request through the kernel`);
      try {
        await conn.sendRequest(SandboxDirectFailure.type, { session, plugin: plugin as string, operation: op, code: error.code, message: error.message });
      } catch {
        // Not on record: the kernel route answers it instead (and records it).
        return directRefusal('the kernel did not take the refusal on record; send the request through the kernel');
      }
      // As the kernel would pass it on: the backend's code and words, no more.
      return new ResponseError(ProtocolErrorCodes.WorkspaceError, error.message, { code: error.code });
    } finally {
      call.dispose();
    }
  };

  shutdown.addEventListener('abort', () => void server?.close(), { once: true });
  return {
    forget: (session) => void served.delete(session),
    async offer(session, channel) {
      const backend = sessions.get(session);
      if (!backend || !DIRECT_OPERATIONS.some((op) => backend.operations[op])) return false;
      server ??= new DirectChannelServer(serve);
      if (!(await server.listen(channel.socket))) return false;
      served.set(session, { secret: channel.secret, verified: new Map() });
      return true;
    },
  };
}
