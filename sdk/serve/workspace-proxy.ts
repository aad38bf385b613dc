import { CancellationTokenSource, ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  ExecProgress,
  ExecProgressValue,
  ProtocolErrorCodes,
  WORKSPACE_ERROR_CODES,
  WORKSPACE_METHODS,
  WORKSPACE_RUN_METHODS,
  type ExecOutputListener,
  type ExecRunOperation,
  type WorkspaceErrorCode,
  type DirectOperation,
  type WorkspaceChannel,
  type WorkspaceOperation,
  type WorkspaceService,
} from '../../protocol/index.js';
import { WorkspaceError } from '../plugin/errors.js';
import { directRequest } from './direct-client.js';

function tokenFor(signal: AbortSignal | undefined): CancellationTokenSource | undefined {
  if (!signal) return undefined;
  const source = new CancellationTokenSource();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', () => source.cancel(), { once: true });
  return source;
}

async function call(conn: MessageConnection, op: WorkspaceOperation | ExecRunOperation, params: object, signal: AbortSignal | undefined): Promise<any> {
  const source = tokenFor(signal);
  try {
    const descriptor = op in WORKSPACE_METHODS ? WORKSPACE_METHODS[op as WorkspaceOperation] : WORKSPACE_RUN_METHODS[op as ExecRunOperation];
    return await conn.sendRequest(descriptor.type as any, params, source?.token);
  } catch (error) {
    if (error instanceof ResponseError && error.code === ProtocolErrorCodes.WorkspaceError) {
      const raw = (error.data as { code?: string; path?: string } | undefined)?.code;
      const code = (WORKSPACE_ERROR_CODES as readonly string[]).includes(raw ?? '') ? (raw as WorkspaceErrorCode) : 'IO_ERROR';
      throw new WorkspaceError(code, error.message, { path: (error.data as { path?: string } | undefined)?.path, cause: error });
    }
    throw error;
  } finally {
    source?.dispose();
  }
}

let execTokens = 0;

/** `workspace/exec` with a progress token: the kernel relays the backend's reports of the output so far to `onOutput`. */
async function execWithOutput(conn: MessageConnection, params: object, signal: AbortSignal, onOutput: ExecOutputListener): Promise<any> {
  const progressToken = `exec-${++execTokens}`;
  const sub = conn.onProgress(ExecProgress.type, progressToken, (value) => {
    const report = ExecProgressValue.safeParse(value);
    if (report.success) onOutput(report.data.output);
  });
  try {
    return await call(conn, 'exec', { ...params, progressToken }, signal);
  } finally {
    sub.dispose();
  }
}

/**
 * The `workspace` a tool handler sees: each method is a `workspace/*` request to the kernel,
 * tagged with the calling session and cancelled with the call (its signal is the default).
 */
export function createWorkspaceProxy(conn: MessageConnection, sessionKey: string | undefined, callSignal: AbortSignal, channel?: WorkspaceChannel): WorkspaceService {
  const s = (signal?: AbortSignal): AbortSignal => signal ?? callSignal;
  // Read-only operations go straight to the backend when the call's context granted it, else (or when the backend declines) through the kernel.
  const readOnly = channel && sessionKey !== undefined
    ? async (op: DirectOperation, params: Record<string, unknown>, signal: AbortSignal): Promise<any> => {
      const direct = await directRequest(channel, sessionKey, op, params, signal);
      return direct ? direct.value : call(conn, op, { sessionKey, ...params }, signal);
    }
    : (op: DirectOperation, params: Record<string, unknown>, signal: AbortSignal): Promise<any> => call(conn, op, { sessionKey, ...params }, signal);
  return {
    read: (path, options, signal) => readOnly('read', { path, options }, s(signal)),
    write: (path, content, options, signal) => call(conn, 'write', { sessionKey, path, content, options }, s(signal)),
    stat: (path, signal) => readOnly('stat', { path }, s(signal)),
    readDirectory: (path, signal) => readOnly('readDirectory', { path }, s(signal)),
    mkdir: async (path, options, signal) => void (await call(conn, 'mkdir', { sessionKey, path, options }, s(signal))),
    remove: async (path, options, signal) => void (await call(conn, 'remove', { sessionKey, path, options }, s(signal))),
    rename: async (from, to, signal) => void (await call(conn, 'rename', { sessionKey, from, to }, s(signal))),
    exec: (command, options, signal, onOutput) =>
      onOutput ? execWithOutput(conn, { sessionKey, command, options }, s(signal), onOutput) : call(conn, 'exec', { sessionKey, command, options }, s(signal)),
    // A run is detached from the call: only waiting for it (read) follows the call's signal.
    runs: {
      start: (command, options, signal) => call(conn, 'runStart', { sessionKey, command, options }, signal),
      list: (signal) => call(conn, 'runList', { sessionKey }, s(signal)),
      read: (runId, options, signal) => call(conn, 'runRead', { sessionKey, runId, options }, s(signal)),
      kill: (runId, signal) => call(conn, 'runKill', { sessionKey, runId }, signal),
    },
  };
}
