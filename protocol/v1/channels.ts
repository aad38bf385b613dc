/**
 * Channels: plugins that deliver the kernel's `message` tool calls somewhere (a webhook, a
 * local outbox, a chat service). A channel declares which actions of the kernel's closed
 * message-action vocabulary it supports; it cannot add names. The kernel owns the `message`
 * tool, checks every call against the declaration, and sends the channel `channel/action`.
 */
import * as z from 'zod';
import { defineRequest } from '../define.js';
import { CHANNEL_MESSAGE_ACTION_NAMES } from '../vocabulary/index.js';
import { lazySchema } from '../lazy-schema.js';

const VOCABULARY: ReadonlySet<string> = new Set(CHANNEL_MESSAGE_ACTION_NAMES);

/** Channel ids: what runs and policy lists name a channel by. @since 1 */
export const ChannelId = lazySchema(() => z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'channel ids are 1-64 lower-case letters, digits, ".", "_" and "-", starting with a letter or digit'));

/**
 * The subset of the vocabulary a channel supports. A name outside the vocabulary refuses the
 * whole contribution (and so the plugin's handshake): a plugin built for another vocabulary
 * must not half-work.
 * @since 1
 */
export const ChannelActions = lazySchema(() => z
  .array(z.string())
  .min(1, 'a channel declares at least one message action')
  .superRefine((actions, ctx) => {
    const seen = new Set<string>();
    actions.forEach((action, index) => {
      if (!VOCABULARY.has(action)) {
        ctx.addIssue({
          code: 'custom',
          path: [index],
          message: `unknown message action ${JSON.stringify(action.slice(0, 80))}: channels declare a subset of the kernel's closed vocabulary and cannot add names`,
        });
      } else if (seen.has(action)) ctx.addIssue({ code: 'custom', path: [index], message: `message action "${action}" is declared twice` });
      seen.add(action);
    });
  }));

/** A channel a plugin contributes. @since 1 */
export const ChannelContribution = lazySchema(() => z.object({
  id: ChannelId,
  /** Supported actions, a subset of CHANNEL_MESSAGE_ACTION_NAMES. */
  actions: ChannelActions,
  /** One line for the model: where messages on this channel go. */
  description: z.string().max(300).optional(),
}));
export type ChannelContribution = z.infer<typeof ChannelContribution>;

/** The session a message comes from; every channel records it with what it delivers. @since 1 */
export const MessageSource = lazySchema(() => z.object({
  sessionKey: z.string(),
  agentId: z.string(),
  /** The sending session's own channel, when it has one. */
  channel: z.string().optional(),
  /** True when the session sends on a channel other than its own (a policy switch allowed it). */
  crossSession: z.boolean(),
}));
export type MessageSource = z.infer<typeof MessageSource>;

/** Kernel → plugin: perform one message action. @since 1 */
export const ChannelActionParams = lazySchema(() => z.object({
  channel: ChannelId,
  action: z.string(),
  /** The model's action parameters (`to`, `message`, `messageId`, ...), already size-checked by the kernel. */
  params: z.record(z.string(), z.unknown()),
  source: MessageSource,
  /** Stable across retries of the same tool call: a channel delivers one key at most once. */
  idempotencyKey: z.string().min(1).max(200),
  /** Wall-clock deadline (ms since epoch): answer before it, retries included. */
  deadline: z.number().optional(),
}));
export type ChannelActionParams = z.input<typeof ChannelActionParams>;

/**
 * How far an action got. `ok`: done. `failed`: certainly not done (nothing left the plugin, or
 * the endpoint refused it). `unknown`: it may have reached the endpoint (a timeout after
 * sending, a 5xx): a message in that state must never be reported as failed.
 * @since 1
 */
export const ChannelOutcome = lazySchema(() => z.enum(['ok', 'failed', 'unknown']));
export type ChannelOutcome = z.infer<typeof ChannelOutcome>;

/** @since 1 */
export const ChannelActionResult = lazySchema(() => z.object({
  status: ChannelOutcome,
  /** The channel's id for what it delivered, when it has one. */
  messageId: z.string().max(200).optional(),
  /** Why it failed or may not have arrived, for the model and the operator. */
  detail: z.string().max(2000).optional(),
  /** Attempts made (retries included). */
  attempts: z.number().int().nonnegative().optional(),
  /** True when the same idempotency key was already delivered (nothing was sent again). */
  duplicate: z.boolean().optional(),
  /** Action-specific data (e.g. what `read` returned). */
  data: z.unknown().optional(),
}));
export type ChannelActionResult = z.infer<typeof ChannelActionResult>;

/** Performs one message action on a channel. @since 1 */
export const ChannelAction = defineRequest('channel/action', ChannelActionParams, ChannelActionResult, {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Performs one message action (a declared subset of the closed vocabulary) on one of the plugin’s channels. The answer says whether it happened, certainly did not, or may have (delivery unknown).',
});
