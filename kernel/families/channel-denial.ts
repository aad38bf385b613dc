/**
 * Deny lists reach channels too: a channel whose id (or whose plugin's id) a layer's deny list
 * names is out of a session's reach, as the reference's sandbox default deny of channel ids
 * intends ("an agent in a container does not message channels directly"). Allow lists do not
 * apply: a channel is not a tool, and the `message` tool itself passes the allow lists.
 */
import { createToolPolicyMatcher } from '../../sdk/policy/index.js';
import { denyLabel, type PolicyStep } from '../policy/index.js';
import type { ChannelEndpoint } from './endpoints.js';

export interface ChannelDenial {
  layer: PolicyStep['layer'];
  label: string;
  configKey?: string;
}

/** The first layer whose deny list names the channel, or undefined. */
export function channelDenial(channel: ChannelEndpoint, steps: readonly PolicyStep[]): ChannelDenial | undefined {
  for (const step of steps) {
    const deny = step.policy?.deny;
    if (!deny?.length) continue;
    const allowed = createToolPolicyMatcher({ deny });
    if (!allowed(channel.id) || !allowed(channel.pluginId)) return { layer: step.layer, label: denyLabel(step.label), ...(step.configKeys?.deny ? { configKey: step.configKeys.deny } : {}) };
  }
  return undefined;
}

/** The channels a run may reach, and why the others may not. */
export function splitDeniedChannels(channels: ReadonlyMap<string, ChannelEndpoint>, steps: readonly PolicyStep[]): { usable: Map<string, ChannelEndpoint>; denied: Map<string, ChannelDenial> } {
  const usable = new Map<string, ChannelEndpoint>();
  const denied = new Map<string, ChannelDenial>();
  for (const [id, channel] of channels) {
    const denial = channelDenial(channel, steps);
    if (denial) denied.set(id, denial);
    else usable.set(id, channel);
  }
  return { usable, denied };
}
