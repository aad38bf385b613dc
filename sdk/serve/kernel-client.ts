/**
 * A plugin's client for the kernel's turn services: describe the calling run, start a turn
 * (subagent, send, cron), read sessions, and (for the ledger plugin) tell the kernel a task
 * was asked to stop. Refusals arrive as TurnRefusedError with the kernel's reason.
 */
import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  ProtocolErrorCodes,
  RunDescribe,
  SessionQuery,
  TasksCancelRequested,
  TurnStart,
  type RunInfo,
  type SessionQueryParams,
  type TurnStartParams,
  type TurnStartResult,
} from '../../protocol/index.js';
import { PluginError } from '../plugin/errors.js';

/** The kernel refused a turn or session request; `reason` is one of TURN_REFUSAL_REASONS. @since 1 */
export class TurnRefusedError extends PluginError {
  override readonly name = 'TurnRefusedError';
  constructor(
    readonly reason: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(ProtocolErrorCodes.TurnRefused, message, { reason }, options);
  }
}

/** What every plugin may ask of the kernel outside a tool call. @since 1 */
export interface KernelClient {
  /** Starts a cron job's isolated run (the automations plugin; the kernel checks the designation). */
  startTurn(params: TurnStartParams): Promise<TurnStartResult>;
  /** Ledger plugin: a task was asked to stop; the kernel that runs it cancels the work. */
  notifyCancelRequested(taskId: string): void;
}

/** The same, bound to one tool call in flight. @since 1 */
export interface CallKernelClient {
  describeRun(): Promise<RunInfo>;
  startTurn(params: Omit<TurnStartParams, 'callToken'>): Promise<TurnStartResult>;
  querySessions(params: Omit<SessionQueryParams, 'callToken'>): Promise<Record<string, unknown>>;
}

async function send<R>(run: () => Promise<R>): Promise<R> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ResponseError && error.code === ProtocolErrorCodes.TurnRefused) {
      throw new TurnRefusedError(String((error.data as { reason?: unknown } | undefined)?.reason ?? 'INVALID_REQUEST'), error.message, { cause: error });
    }
    throw error;
  }
}

export function createKernelClient(conn: MessageConnection): KernelClient {
  return {
    startTurn: (params) => send(() => conn.sendRequest(TurnStart.type, params)),
    notifyCancelRequested: (id) => void conn.sendNotification(TasksCancelRequested.type, { id }).catch(() => undefined),
  };
}

export function createCallKernelClient(conn: MessageConnection, callToken: string | undefined): CallKernelClient {
  const token = (): string => {
    if (!callToken) throw new TurnRefusedError('UNKNOWN_CALL', 'this call carries no callToken: the kernel that sent it offers no turn services');
    return callToken;
  };
  return {
    describeRun: () => send(() => conn.sendRequest(RunDescribe.type, { callToken: token() })),
    startTurn: (params) => send(() => conn.sendRequest(TurnStart.type, { ...params, callToken: token() })),
    querySessions: (params) => send(() => conn.sendRequest(SessionQuery.type, { ...params, callToken: token() })),
  };
}
