/**
 * A plugin's own parts, as operators should see them beside the plugin's process state: the
 * MCP bridge reports each MCP server (idle, connecting, ready, reconnecting, failed) with its
 * last error. The kernel keeps the latest report and shows it in the plugin's status.
 */
import * as z from 'zod';
import { defineNotification } from '../define.js';
import { lazySchema } from '../lazy-schema.js';

/** One part of a plugin (an MCP server of the bridge, a connection…). @since 1 */
export const PluginComponentStatus = lazySchema(() => z.object({
  /** What kind of part: `mcp-server`, … */
  kind: z.string().min(1).max(64),
  name: z.string().min(1).max(128),
  /** A short state word, e.g. `idle`, `connecting`, `ready`, `reconnecting`, `failed`. */
  state: z.string().min(1).max(32),
  lastError: z.string().max(2000).optional(),
  /** When `lastError` happened (ISO 8601). */
  lastErrorAt: z.string().max(64).optional(),
  /** One line more, e.g. `stdio pid 4242`, `12 tools`, `next attempt in 4 s`. */
  detail: z.string().max(500).optional(),
}));
export type PluginComponentStatus = z.infer<typeof PluginComponentStatus>;

/** @since 1 */
export const PluginStatusChangedParams = lazySchema(() => z.object({ components: z.array(PluginComponentStatus).max(256) }));
export type PluginStatusChangedParams = z.infer<typeof PluginStatusChangedParams>;

/** Plugin → kernel: the state of each of its parts now (replaces the previous report). @since 1 */
export const PluginStatusChanged = defineNotification('plugin/statusChanged', PluginStatusChangedParams, {
  direction: 'plugin-to-kernel',
  since: 1,
  doc: 'Replaces the kernel’s record of the plugin’s parts (for example each MCP server of the MCP bridge: state and last error), shown in the plugin status (`pincer plugins`).',
});
