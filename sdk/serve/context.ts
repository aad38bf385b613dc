import type { CancellationToken, MessageConnection } from 'vscode-jsonrpc/node';
import { Log, LogLevel } from '../../protocol/index.js';
import type { HandlerContext, PluginLogger } from '../plugin/types.js';

/** A logger that sends `$/log` notifications (fire and forget). */
export function createRemoteLogger(conn: MessageConnection): PluginLogger {
  const send = (level: LogLevel) => (message: string, data?: unknown) => {
    void conn.sendNotification(Log.type, { level, message, data }).catch(() => undefined);
  };
  return { trace: send('trace'), debug: send('debug'), info: send('info'), warn: send('warn'), error: send('error') };
}

/** An AbortSignal that fires on the request's cancellation token or on plugin shutdown. */
export function signalFor(token: CancellationToken, shutdown: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onShutdown = (): void => controller.abort(new Error('the plugin is shutting down'));
  if (token.isCancellationRequested) controller.abort(new Error('cancelled'));
  const sub = token.onCancellationRequested(() => controller.abort(new Error('cancelled')));
  shutdown.addEventListener('abort', onShutdown, { once: true });
  return {
    signal: controller.signal,
    dispose: () => {
      sub.dispose();
      shutdown.removeEventListener('abort', onShutdown);
    },
  };
}

export function baseContext(signal: AbortSignal, settings: Record<string, unknown>, log: PluginLogger): HandlerContext {
  return { signal, settings, log };
}
