/**
 * Which channel a session talks on: the run's own (`RunContext.channel`), else
 * `tools.message.defaultChannel`, else the only enabled channel. A session with no channel
 * gets no `message` tool, and a warning says why whenever channels exist.
 */
import type { ChannelDenial } from './channel-denial.js';
import type { ChannelEndpoint } from './endpoints.js';

export interface SessionChannel {
  channel?: ChannelEndpoint;
  warning?: string;
}

function normalizeChannelId(id: string): string {
  return id.trim().toLowerCase();
}

function served(channels: ReadonlyMap<string, ChannelEndpoint>): string {
  return channels.size ? `enabled channels: ${[...channels.keys()].join(", ")}` : "no enabled plugin declares a channel";
}

function deniedNote(id: string, denial: ChannelDenial): string {
  return `tools: message is not offered: this session's channel "${id}" is denied by ${denial.label}${denial.configKey ? ` (${denial.configKey})` : ''}.`;
}

/** `channels` are the usable ones; `denied` the ones a deny list took out of reach. */
export function resolveSessionChannel(
  runChannel: string | undefined,
  defaultChannel: string | undefined,
  channels: ReadonlyMap<string, ChannelEndpoint>,
  denied: ReadonlyMap<string, ChannelDenial> = new Map(),
): SessionChannel {
  const named = runChannel?.trim() ? { id: runChannel, from: "this run's channel" } : defaultChannel?.trim() ? { id: defaultChannel, from: 'tools.message.defaultChannel' } : undefined;
  if (named) {
    const id = normalizeChannelId(named.id);
    const channel = channels.get(id);
    if (channel) return { channel };
    const denial = denied.get(id);
    if (denial) return { warning: deniedNote(id, denial) };
    // A session pointed at a channel nobody serves must not silently fall back to another one.
    return { warning: `tools: message is not offered: ${named.from} ${JSON.stringify(named.id.slice(0, 64))} is served by no enabled plugin (${served(channels)}).` };
  }
  const enabled = [...channels.keys(), ...denied.keys()];
  if (enabled.length === 0) return {};
  if (enabled.length === 1) return channels.size ? { channel: [...channels.values()][0] } : { warning: deniedNote(...[...denied][0]) };
  return { warning: `tools: message is not offered: this run names no channel and several are enabled (${enabled.join(', ')}); pass RunContext.channel or set tools.message.defaultChannel.` };
}
