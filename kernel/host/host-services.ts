/**
 * Plugin → kernel services beyond the workspace: the turn requests (`run/describe`,
 * `turns/start`, `sessions/query`) and the task notifications. The kernel's turn service
 * answers them; the host only validates the params and carries refusals back typed.
 */
import { ResponseError, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  ProtocolErrorCodes,
  TASKS_METHODS,
  TURNS_METHODS,
  type NotificationDescriptor,
  type ProtocolErrorData,
  type RequestDescriptor,
} from '../../protocol/index.js';
import type { PluginLogSink } from './plugin-log.js';

export interface HostServices {
  /** Answers a plugin's request; a refusal is an error with `reason` (TURN_REFUSAL_REASONS). */
  request(pluginId: string, method: string, params: unknown, signal: AbortSignal): Promise<unknown>;
  notify(pluginId: string, method: string, params: unknown): void;
}

const REQUESTS: readonly RequestDescriptor[] = Object.values(TURNS_METHODS);
const NOTIFICATIONS: readonly NotificationDescriptor[] = [TASKS_METHODS.TasksReport, TASKS_METHODS.TasksCancelRequested];

function refusal(error: unknown): ResponseError<ProtocolErrorData> {
  const e = error as { reason?: unknown; message?: unknown };
  const reason = typeof e?.reason === 'string' ? e.reason : 'INVALID_REQUEST';
  return new ResponseError(ProtocolErrorCodes.TurnRefused, String(e?.message ?? error), { reason });
}

export function registerHostServices(conn: MessageConnection, pluginId: string, log: PluginLogSink, services: () => HostServices | undefined, pending: Set<AbortController>): void {
  for (const descriptor of REQUESTS) {
    conn.onRequest(descriptor.type as never, async (raw: unknown, token: CancellationToken) => {
      const parsed = descriptor.params.safeParse(raw);
      if (!parsed.success) return new ResponseError(ProtocolErrorCodes.InvalidParams, `invalid ${descriptor.method} params: ${parsed.error.message}`);
      const handler = services();
      if (!handler) return new ResponseError(ProtocolErrorCodes.CapabilityMissing, `this kernel does not serve ${descriptor.method}`);
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort(new Error('cancelled by the plugin')));
      pending.add(controller);
      try {
        return (await handler.request(pluginId, descriptor.method, parsed.data, controller.signal)) ?? null;
      } catch (error) {
        return refusal(error);
      } finally {
        sub.dispose();
        pending.delete(controller);
      }
    });
  }
  for (const descriptor of NOTIFICATIONS) {
    conn.onNotification(descriptor.type as never, (raw: unknown) => {
      const parsed = descriptor.params.safeParse(raw);
      if (!parsed.success) return log.write('error', `ignored an invalid ${descriptor.method}: ${parsed.error.message}`);
      services()?.notify(pluginId, descriptor.method, parsed.data);
    });
  }
}
