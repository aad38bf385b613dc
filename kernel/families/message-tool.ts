/**
 * The kernel's `message` tool. Every call is checked here, before any channel sees it: the
 * action against the closed vocabulary and the target channel's declared subset, the target
 * against the session's own channel (another channel is a cross-session send, off unless the
 * operator allows it), and the body against the size limit. Then one `channel/action`.
 */
import { ChannelAction, CHANNEL_MESSAGE_ACTION_NAMES, type ChannelActionResult, type MessageSource } from '../../protocol/index.js';
import type { KernelTool, ToolExecuteContext, ToolResult } from '../gate/index.js';
import { describeChannelResult, describeLostDelivery } from './delivery.js';
import type { ChannelDenial } from './channel-denial.js';
import type { ChannelEndpoint } from './endpoints.js';
import { isKernelError } from '../host/index.js';
import { idempotencyKey, type EndpointCaller } from './endpoint-call.js';
import { messageDescription, messageSchema, offeredActions, type MessageView } from './message-schema.js';
import { FamilyToolError, asToolResult, optionalString } from './results.js';

const VOCABULARY: ReadonlySet<string> = new Set(CHANNEL_MESSAGE_ACTION_NAMES);
/** Room for the other params (ids, options) beside the body. */
const PARAMS_OVERHEAD_BYTES = 16 * 1024;
const NAMED_PARAMS = ['to', 'message', 'messageId', 'threadId', 'emoji'] as const;

export interface MessageBinding extends MessageView {
  sessionKey: string;
  agentId: string;
  crossSession: boolean;
  /** Every enabled channel in reach, to tell "not allowed" from "does not exist". */
  allChannels: ReadonlyMap<string, ChannelEndpoint>;
  /** Enabled channels a deny list put out of reach. */
  denied: ReadonlyMap<string, ChannelDenial>;
}

function targetChannel(binding: MessageBinding, requested: string | undefined): ChannelEndpoint {
  const id = requested?.trim().toLowerCase();
  if (!id || id === binding.own.id) return binding.own;
  const channel = binding.allChannels.get(id);
  const denial = binding.denied.get(id);
  if (denial) {
    throw new FamilyToolError('CHANNEL_DENIED', `channel ${JSON.stringify(id)} is out of this session's reach (${denial.label}). Nothing was sent.`, undefined, { channel: id, layer: denial.layer, ...(denial.configKey ? { configKey: denial.configKey } : {}) });
  }
  if (!binding.crossSession) {
    throw new FamilyToolError(
      'CROSS_SESSION_DENIED',
      `this session sends only on its own channel "${binding.own.id}"; sending on ${JSON.stringify(id.slice(0, 64))} would be a cross-session send, which is not enabled for this agent. Nothing was sent.`,
      `Leave "channel" out to send on "${binding.own.id}".`,
      { channel: id, ownChannel: binding.own.id, configKey: 'tools.message.crossSession' },
    );
  }
  if (!channel) {
    throw new FamilyToolError('UNKNOWN_CHANNEL', `no enabled channel is named ${JSON.stringify(id.slice(0, 64))}. Nothing was sent.`, `Channels: ${binding.reachable.map((c) => c.id).join(', ')}.`);
  }
  return channel;
}

function checkAction(action: string, channel: ChannelEndpoint): void {
  const supported = `Channel "${channel.id}" supports: ${channel.actions.join(', ')}.`;
  if (!VOCABULARY.has(action)) throw new FamilyToolError('UNKNOWN_ACTION', `${JSON.stringify(action.slice(0, 64))} is not a message action. Nothing was sent.`, supported, { channel: channel.id, supported: channel.actions });
  if (!channel.actions.includes(action)) {
    throw new FamilyToolError('UNSUPPORTED_ACTION', `channel "${channel.id}" does not support "${action}". Nothing was sent.`, supported, { channel: channel.id, action, supported: channel.actions });
  }
}

/** The params the channel receives: the named fields over `options`, within the size limits. */
function channelParams(params: Record<string, unknown>, maxBodyBytes: number): Record<string, unknown> {
  const options = params.options;
  if (options !== undefined && (options === null || typeof options !== 'object' || Array.isArray(options))) throw new FamilyToolError('INVALID_PARAMS', '"options" must be an object');
  const out: Record<string, unknown> = { ...(options as Record<string, unknown> | undefined) };
  // The named fields come from the top level only, as strings: `options` cannot smuggle in a non-string body.
  for (const key of NAMED_PARAMS) {
    delete out[key];
    const value = optionalString(params, key);
    if (value !== undefined) out[key] = value;
  }
  const body = typeof out.message === 'string' ? Buffer.byteLength(out.message) : 0;
  if (body > maxBodyBytes) {
    throw new FamilyToolError('BODY_TOO_LARGE', `the message is ${body} bytes; a message may have at most ${maxBodyBytes}. Nothing was sent.`, 'Shorten it, or split it into several messages.', { bytes: body, limit: maxBodyBytes });
  }
  const total = Buffer.byteLength(JSON.stringify(out));
  if (total > maxBodyBytes + PARAMS_OVERHEAD_BYTES) {
    throw new FamilyToolError('PARAMS_TOO_LARGE', `the action's parameters are ${total} bytes; at most ${maxBodyBytes + PARAMS_OVERHEAD_BYTES} are accepted. Nothing was sent.`, undefined, { bytes: total });
  }
  return out;
}

async function send(binding: MessageBinding, caller: EndpointCaller, params: Record<string, unknown>, ctx: ToolExecuteContext): Promise<ToolResult> {
  const action = optionalString(params, 'action')?.trim();
  if (!action) throw new FamilyToolError('INVALID_PARAMS', '"action" is required', `Actions: ${offeredActions(binding).join(', ')}.`);
  const channel = targetChannel(binding, optionalString(params, 'channel'));
  checkAction(action, channel);
  const forwarded = channelParams(params, binding.maxBodyBytes);
  const source: MessageSource = { sessionKey: binding.sessionKey, agentId: binding.agentId, channel: binding.own.id, crossSession: channel !== binding.own };
  const key = idempotencyKey('msg', [binding.agentId, binding.sessionKey, ctx.toolCallId, channel.id, action]);
  const { timeoutMs, deadline } = caller.deadlineFor(channel.pluginId);
  let answer: ChannelActionResult;
  try {
    answer = await caller.call(channel.pluginId, ChannelAction, { channel: channel.id, action, params: forwarded, source, idempotencyKey: key, deadline }, { timeoutMs, signal: ctx.signal });
  } catch (error) {
    // The caller cancelled: the gate reports that itself (and that the tool may not have finished).
    if (ctx.signal?.aborted || !isKernelError(error)) throw error;
    throw describeLostDelivery(error, { channel, action, source });
  }
  return describeChannelResult(answer, { channel, action, source });
}

/** The session's `message` tool; the schema is built once per session view and reused. */
export function messageKernelTool(binding: MessageBinding, parameters: Record<string, unknown>, caller: EndpointCaller): KernelTool {
  return {
    name: 'message',
    description: messageDescription(binding),
    parameters,
    executionMode: 'sequential',
    execute: (params, ctx) => asToolResult(() => send(binding, caller, params, ctx)),
  };
}

export { messageSchema };
