import * as z from 'zod';
import { defineRequest } from '../define.js';
import { ChannelContribution } from './channels.js';
import { HookContribution } from './hooks.js';
import { NodeContribution } from './nodes.js';
import { SandboxBackendContribution } from './sandbox.js';
import { SkillSourceContribution } from './skills.js';
import { ToolContribution } from './tools.js';
import { lazySchema } from '../lazy-schema.js';

/** An id or version: printable, no spaces or control characters, at most 64 characters. @since 1 */
const Label = lazySchema(() => z.string().regex(/^[\x21-\x7e]{1,64}$/, 'must be 1-64 printable ASCII characters without spaces'));

/** Name and semver of a peer. @since 1 */
export const PeerInfo = lazySchema(() => z.object({ name: Label, version: Label }));
export type PeerInfo = z.infer<typeof PeerInfo>;

/**
 * What the kernel offers a plugin. Loose so a newer kernel can add flags an older plugin ignores.
 * @since 1
 */
export const KernelCapabilities = lazySchema(() => z.looseObject({
  /** Workspace service methods the kernel answers (`workspace/read`, ...). */
  workspace: z.array(z.string()).optional(),
  /** The kernel accepts `$/progress` for requests that carried a progress token. */
  progress: z.boolean().optional(),
  /** The kernel accepts `$/log`. */
  log: z.boolean().optional(),
  /** The kernel answers `run/describe`, `turns/start` and `sessions/query` (for designated plugins). */
  turns: z.boolean().optional(),
}));
export type KernelCapabilities = z.infer<typeof KernelCapabilities>;

/** What a plugin declares about itself. Loose for the same reason. @since 1 */
export const PluginCapabilities = lazySchema(() => z.looseObject({
  /** The plugin may send `tools/listChanged`; without it the kernel ignores them. */
  toolsListChanged: z.boolean().optional(),
  /** The plugin honours `$/cancelRequest` (informational: the kernel sends it either way). */
  cancellation: z.boolean().optional(),
  /** The plugin sends `$/progress` when given a progress token. */
  progress: z.boolean().optional(),
  /** The plugin keeps the tasks ledger (answers `tasks/record`, `tasks/query`, `tasks/requestCancel`). */
  taskLedger: z.boolean().optional(),
}));
export type PluginCapabilities = z.infer<typeof PluginCapabilities>;

/** Everything a plugin contributes. Each list defaults to empty. @since 1 */
export const Contributions = lazySchema(() => z.object({
  tools: z.array(ToolContribution).default([]),
  sandboxBackends: z.array(SandboxBackendContribution).default([]),
  skillSources: z.array(SkillSourceContribution).default([]),
  hooks: z.array(HookContribution).default([]),
  /** Message channels and the vocabulary subset each supports. @since 1 */
  channels: z.array(ChannelContribution).default([]),
  /** Paired devices and their commands. @since 1 */
  nodes: z.array(NodeContribution).default([]),
}));
export type Contributions = z.output<typeof Contributions>;
export type ContributionsInput = z.input<typeof Contributions>;

/** Kernel → plugin, first message on the connection. @since 1 */
export const HandshakeParams = lazySchema(() => z.object({
  /** Every protocol version the kernel speaks. */
  protocolVersions: z.array(z.number().int().positive()).min(1),
  kernel: PeerInfo,
  capabilities: KernelCapabilities,
  /** Per-plugin settings from the operator's config, passed through untouched. */
  settings: z.record(z.string(), z.unknown()).default({}),
}));
export type HandshakeParams = z.infer<typeof HandshakeParams>;

/** Plugin's answer: the version it chose, who it is, what it contributes. @since 1 */
export const HandshakeResult = lazySchema(() => z.object({
  /** One of the offered `protocolVersions`; the kernel re-checks. */
  protocolVersion: z.number().int().positive(),
  plugin: z.object({ id: Label, version: Label }),
  capabilities: PluginCapabilities.default({}),
  contributes: Contributions,
}));
export type HandshakeResult = z.output<typeof HandshakeResult>;

/**
 * The first request on every connection. A plugin answers nothing else before it.
 * No common version → error `VersionMismatch` with `data.detail = { pluginVersions }`.
 * @since 1
 */
export const Handshake = defineRequest('handshake', HandshakeParams, HandshakeResult, {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Opens the connection: the kernel offers versions, capabilities and settings; the plugin answers with the chosen version, identity, capabilities and contributions.',
});
