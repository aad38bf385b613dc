import * as z from 'zod';
import { defineNotification, defineRequest } from '../define.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * Protocol-level methods (`$/` prefix). `$/cancelRequest` and `$/progress` follow the
 * vscode-jsonrpc / LSP conventions exactly, so any LSP-style library speaks them.
 */

/** Kernel → plugin: finish in-flight work and exit. The kernel escalates to signals after a grace period. @since 1 */
export const Shutdown = defineRequest('$/shutdown', lazySchema(() => z.object({ reason: z.string().optional() })), lazySchema(() => z.null()), {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Asks the plugin to stop. Answer, then exit once the pipe closes. Grace, then SIGTERM, grace, then SIGKILL of the process group follow.',
});

/**
 * Kernel → plugin liveness probe, sent after a call missed its deadline. Any answer counts,
 * even MethodNotFound from a plugin that predates it; no answer gets the plugin restarted.
 * @since 1
 */
export const Ping = defineRequest('$/ping', lazySchema(() => z.object({})), lazySchema(() => z.null()), {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Liveness probe after a missed deadline. Answer at once (null); an error answer counts as alive too. No answer within the ping deadline restarts the plugin.',
});

/** @since 1 */
export const LogLevel = lazySchema(() => z.enum(['trace', 'debug', 'info', 'warn', 'error']));
export type LogLevel = z.infer<typeof LogLevel>;

/** @since 1 */
export const LogParams = lazySchema(() => z.object({ level: LogLevel, message: z.string(), data: z.unknown().optional() }));
export type LogParams = z.infer<typeof LogParams>;

/** Plugin → kernel structured log line, logged under `plugin:<id>`. @since 1 */
export const Log = defineNotification('$/log', LogParams, {
  direction: 'plugin-to-kernel',
  since: 1,
  doc: 'A structured log record; the kernel logs it under plugin:<id> at the given level.',
});

/** Either side: cancel the request with this id. Sent by vscode-jsonrpc when a token cancels. @since 1 */
export const CancelRequest = defineNotification('$/cancelRequest', lazySchema(() => z.object({ id: z.union([z.number(), z.string()]) })), {
  direction: 'both',
  since: 1,
  doc: 'Cancels an in-flight request. The receiver should stop work and answer with RequestCancelled (or any error).',
});

/** Either side: progress under a token from the request (`{token, value}`). @since 1 */
export const ProgressNotification = defineNotification(
  '$/progress',
  lazySchema(() => z.object({ token: z.union([z.number(), z.string()]), value: z.unknown() })),
  { direction: 'both', since: 1, doc: 'Progress report for the request that supplied this token; value shape depends on the request (see tool progress).' },
);
