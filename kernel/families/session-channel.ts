/**
 * Which channel a session talks on: the run's own (`RunContext.channel`), else
 * `tools.message.defaultChannel`, else the only enabled channel. A session with no channel
 * gets no `message` tool, and a warning says why whenever channels exist.
 */
import type { ChannelEndpoint } from './endpoints.js';

export interface SessionChannel {
  channel?: ChannelEndpoint;
  warning?: string;
}

function normalizeChannelId(id: string): string {
  return id.trim().toLowerCase();
}

function served(channels: ReadonlyMap<string, ChannelEndpoint>): string {
  return channels.size ? `enabled channels: ${[...channels.keys()].join(', ')}` : 'no enabled plugin declares a channel';
}

export function resolveSessionChannel(runChannel: string | undefined, defaultChannel: string | undefined, channels: ReadonlyMap<string, ChannelEndpoint>): SessionChannel {
  const named = runChannel?.trim() ? { id: runChannel, from: "this run's channel" } : defaultChannel?.trim() ? { id: defaultChannel, from: 'tools.message.defaultChannel' } : undefined;
  if (named) {
    const channel = channels.get(normalizeChannelId(named.id));
    if (channel) return { channel };
    // A session pointed at a channel nobody serves must not silently fall back to another one.
    return { warning: `tools: message is not offered: ${named.from} ${JSON.stringify(named.id.slice(0, 64))} is served by no enabled plugin (${served(channels)}).` };
  }
  if (channels.size === 1) return { channel: [...channels.values()][0] };
  if (channels.size === 0) return {};
  return { warning: `tools: message is not offered: this run names no channel and several are enabled (${[...channels.keys()].join(', ')}); pass RunContext.channel or set tools.message.defaultChannel.` };
}
