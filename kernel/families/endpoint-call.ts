/**
 * Calling a channel or node plugin from a family tool, and reading how a failed call ended:
 * refused before the plugin acted (nothing happened), or lost after it may have acted.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { ProtocolErrorCodes, type RequestDescriptor } from '../../protocol/index.js';
import { PluginTimeoutsSchema, type KernelError, type PluginConfigInput, type PluginHost } from '../host/index.js';

const DEFAULT_CALL_MS = PluginTimeoutsSchema.parse({}).callMs;
/** Time a plugin keeps to answer after its own deadline (retries stop that much earlier). */
const ANSWER_MARGIN_MS = 1_000;

export interface EndpointCaller {
  /** The deadline the plugin must answer by, given to it so it can stop retrying in time. */
  deadlineFor(pluginId: string): { timeoutMs: number; deadline: number };
  call<D extends RequestDescriptor>(pluginId: string, descriptor: D, params: z.input<D['params']>, options: { timeoutMs: number; signal?: AbortSignal }): Promise<z.output<D['result']>>;
}

export function createEndpointCaller(host: PluginHost, plugins: readonly PluginConfigInput[]): EndpointCaller {
  const callMs = new Map(plugins.map((plugin) => [plugin.id, plugin.timeouts?.callMs ?? DEFAULT_CALL_MS]));
  return {
    deadlineFor(pluginId) {
      const timeoutMs = callMs.get(pluginId) ?? DEFAULT_CALL_MS;
      return { timeoutMs, deadline: Date.now() + Math.max(timeoutMs - ANSWER_MARGIN_MS, timeoutMs / 2) };
    },
    call: (pluginId, descriptor, params, options) => host.invokeEndpoint(pluginId, descriptor, params, options),
  };
}

/**
 * True when the error proves the plugin never acted on the request: it was refused before
 * sending (plugin failed, not ready, unknown, frame too large) or the plugin refused its params.
 * Anything else (a timeout, a crash, a stop, a handler error) may come after the plugin acted.
 */
export function refusedBeforeActing(error: KernelError): boolean {
  switch (error.code) {
    case 'PLUGIN_NOT_FOUND':
    case 'PLUGIN_FAILED':
    case 'PLUGIN_NOT_READY':
    case 'CAPABILITY_NOT_SUPPORTED':
    case 'MESSAGE_TOO_LARGE':
      return true;
    case 'PLUGIN_ERROR':
      return error.protocolCode === ProtocolErrorCodes.InvalidParams;
    default:
      return false;
  }
}


/** A bounded key, stable for one tool call of one session: retries of the call reuse it. */
export function idempotencyKey(prefix: string, parts: readonly string[]): string {
  return `${prefix}-${createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 32)}`;
}
