/**
 * Nodes: plugins that represent paired devices (a phone, a laptop, this machine). A node
 * declares the commands it runs (`device.status`, `system.notify`, ...); the kernel's `nodes`
 * tool reaches them with `node/invoke`, after refusing what the generic surface must never
 * carry (shell commands, media payloads, path-policied file transfers).
 */
import * as z from 'zod';
import { defineRequest } from '../define.js';
import { lazySchema } from '../lazy-schema.js';

/** A node command name: dotted lower-case words (`device.status`). @since 1 */
export const NodeCommandName = lazySchema(() => z.string().regex(/^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*$/i, 'node commands are dotted words such as "device.status"').max(100));

/** A paired device a plugin represents. @since 1 */
export const NodeContribution = lazySchema(() => z.object({
  id: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'node ids are 1-64 lower-case letters, digits, ".", "_" and "-"'),
  /** Shown to the model and the operator. */
  name: z.string().max(100).optional(),
  /** `linux`, `darwin`, `ios`, `android`, ... */
  platform: z.string().max(40).optional(),
  /** Commands the node runs. */
  commands: z.array(NodeCommandName).max(200),
}));
export type NodeContribution = z.infer<typeof NodeContribution>;

/** Kernel → plugin: run one command on one node. @since 1 */
export const NodeInvokeParams = lazySchema(() => z.object({
  node: z.string(),
  command: NodeCommandName,
  params: z.record(z.string(), z.unknown()).default({}),
  /** Unique per tool call: a node runs one key at most once. */
  idempotencyKey: z.string().min(1).max(200),
  source: z.object({ sessionKey: z.string(), agentId: z.string() }),
}));
export type NodeInvokeParams = z.input<typeof NodeInvokeParams>;

/** @since 1 */
export const NodeInvokeResult = lazySchema(() => z.object({
  /** The command's answer. Media travels as `{ mimeType, base64 }` and only to the dedicated actions. */
  payload: z.unknown(),
}));
export type NodeInvokeResult = z.infer<typeof NodeInvokeResult>;

/**
 * Error `data.detail.node` codes a node plugin may answer with (inside a ToolFailed error):
 * `NODE_DISCONNECTED` (the device went away mid-command), `NODE_COMMAND_FAILED`.
 * @since 1
 */
export const NODE_ERROR_CODES = ['NODE_DISCONNECTED', 'NODE_COMMAND_FAILED'] as const;
export type NodeErrorCode = (typeof NODE_ERROR_CODES)[number];

/** Runs one command on one of the plugin's nodes. @since 1 */
export const NodeInvoke = defineRequest('node/invoke', NodeInvokeParams, NodeInvokeResult, {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Runs one declared command on one of the plugin’s nodes. A device that drops mid-command answers ToolFailed with data.detail.node = "NODE_DISCONNECTED".',
});
