import type { MessageConnection } from 'vscode-jsonrpc/node';
import { Log, LogLevel } from '../../protocol/index.js';
import type { HandlerContext, PluginLogger } from '../plugin/types.js';
import type { CallSignal } from './call-signal.js';

/** A logger that sends `$/log` notifications (fire and forget). */
export function createRemoteLogger(conn: MessageConnection): PluginLogger {
  const send = (level: LogLevel) => (message: string, data?: unknown) => {
    void conn.sendNotification(Log.type, { level, message, data }).catch(() => undefined);
  };
  return { trace: send('trace'), debug: send('debug'), info: send('info'), warn: send('warn'), error: send('error') };
}

/**
 * What every handler gets: its call's signal (built when first read), settings and logger. A
 * class for the reason given at ToolCallContext (sdk/serve/handlers.ts).
 */
class CallContextBase implements HandlerContext {
  readonly #call: CallSignal;
  constructor(
    call: CallSignal,
    readonly settings: Record<string, unknown>,
    readonly log: PluginLogger,
  ) {
    this.#call = call;
  }

  get signal(): AbortSignal {
    return this.#call.signal;
  }

  // Assignable, as the type (and the object literal before it) allows: a handler combining signals.
  set signal(value: AbortSignal) {
    ownProperty(this, 'signal', value);
  }
}

/** Replaces a context's getter with a plain property, as an assignment to an object literal would. */
export function ownProperty(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

export function baseContext(call: CallSignal, settings: Record<string, unknown>, log: PluginLogger): HandlerContext {
  return new CallContextBase(call, settings, log);
}
