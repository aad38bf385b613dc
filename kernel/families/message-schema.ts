/**
 * The `message` tool as one session sees it: the action enum is the session's channel's
 * declared subset of the closed vocabulary (the union over every reachable channel when
 * cross-session sends are on), so a model is never offered an action its channel lacks.
 */
import type { ChannelEndpoint } from './endpoints.js';

export interface MessageView {
  own: ChannelEndpoint;
  /** Every channel a send may target: the own one first, the others only with crossSession. */
  reachable: readonly ChannelEndpoint[];
  maxBodyBytes: number;
}

/** Actions of the reachable channels, own channel's first, without repeats. */
export function offeredActions(view: MessageView): string[] {
  return [...new Set(view.reachable.flatMap((channel) => channel.actions))];
}

export function messageDescription(view: MessageView): string {
  const where = view.own.description ? ` (${view.own.description})` : '';
  const others = view.reachable.slice(1);
  const elsewhere = others.length
    ? ` Other channels (messages there are labelled with this session): ${others.map((c) => `"${c.id}" (${c.actions.join(', ')})`).join('; ')}.`
    : '';
  return `Send and manage messages on this session's channel "${view.own.id}"${where}. Actions: ${view.own.actions.join(', ')}.${elsewhere}`;
}

export function messageSchema(view: MessageView): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    action: { type: 'string', enum: offeredActions(view), description: 'The message action to perform.' },
  };
  if (view.reachable.length > 1) {
    properties.channel = {
      type: 'string',
      enum: view.reachable.map((channel) => channel.id),
      description: `Channel to act on; default "${view.own.id}", this session's own.`,
    };
  }
  Object.assign(properties, {
    to: { type: 'string', description: 'Recipient or conversation on the channel, when it has several.' },
    message: { type: 'string', description: `Message text (send, reply, edit, ...); at most ${view.maxBodyBytes} bytes.` },
    messageId: { type: 'string', description: 'The message the action refers to (reply, react, edit, delete, pin, ...).' },
    threadId: { type: 'string', description: 'Thread to act in, when the channel has threads.' },
    emoji: { type: 'string', description: 'Reaction emoji (react).' },
    options: { type: 'object', description: 'Further parameters of the action, as the channel documents them.', additionalProperties: true },
  });
  return { type: 'object', properties, required: ['action'], additionalProperties: false };
}
