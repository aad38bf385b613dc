/**
 * What a message action's outcome tells the model. The one rule: an action that may have
 * reached its destination is reported as "delivery unknown", never as failed, so a model does
 * not resend blindly; "not delivered" only when the channel or the kernel is sure.
 */
import type { ChannelActionResult, MessageSource } from '../../protocol/index.js';
import type { ToolResult } from '../gate/index.js';
import type { KernelError } from '../host/index.js';
import type { ChannelEndpoint } from './endpoints.js';
import { refusedBeforeActing } from './endpoint-call.js';
import { FamilyToolError, okResult } from './results.js';

/** Actions that put a new message somewhere (the reference's send-like set). */
const SEND_LIKE: ReadonlySet<string> = new Set(['send', 'broadcast', 'reply', 'thread-reply', 'sendWithEffect', 'sendAttachment', 'upload-file', 'sticker', 'poll']);
/** At most this much of a channel's `data` goes into the model's text, and this much into `details`. */
const MAX_DATA_TEXT = 16 * 1024;
const MAX_DATA_DETAILS = 256 * 1024;

interface Sent {
  channel: ChannelEndpoint;
  action: string;
  source: MessageSource;
}

function sourceNote(source: MessageSource): string {
  return source.crossSession ? ` It is labelled as sent from session ${source.sessionKey} (cross-session).` : '';
}

function baseDetails(sent: Sent): Record<string, unknown> {
  return { channel: sent.channel.id, action: sent.action, source: sent.source };
}

export function describeChannelResult(answer: ChannelActionResult, sent: Sent): ToolResult {
  const { channel, action } = sent;
  const sendLike = SEND_LIKE.has(action);
  const details = { ...baseDetails(sent), attempts: answer.attempts, ...(answer.messageId ? { messageId: answer.messageId } : {}) };
  if (answer.status === 'unknown') {
    const what = sendLike ? 'delivery unknown' : 'outcome unknown';
    throw new FamilyToolError(
      'DELIVERY_UNKNOWN',
      `${what}: "${action}" on channel "${channel.id}" may have reached its destination${answer.detail ? ` (${answer.detail})` : ''}.`,
      'Check whether it arrived before sending it again.',
      { ...details, status: 'delivery_unknown' },
    );
  }
  if (answer.status === 'failed') {
    throw new FamilyToolError(
      sendLike ? 'NOT_DELIVERED' : 'ACTION_FAILED',
      `"${action}" on channel "${channel.id}" ${sendLike ? 'was not delivered' : 'failed'}${answer.detail ? `: ${answer.detail}` : ''}. Nothing reached the destination.`,
      undefined,
      { ...details, status: 'failed' },
    );
  }
  const id = answer.messageId ? ` (message id ${answer.messageId})` : '';
  const head = answer.duplicate
    ? `Already delivered earlier under the same call${id}; not sent again.`
    : `${sendLike ? 'Delivered' : 'Done'}: "${action}" on channel "${channel.id}"${id}.`;
  const json = answer.data === undefined ? undefined : JSON.stringify(answer.data, null, 2);
  const shown = json === undefined ? '' : `\n${json.length > MAX_DATA_TEXT ? `${json.slice(0, MAX_DATA_TEXT)}\n[… ${json.length - MAX_DATA_TEXT} more characters not shown]` : json}`;
  const kept = json === undefined ? {} : json.length <= MAX_DATA_DETAILS ? { data: answer.data } : { dataTruncated: true };
  return okResult(`${head}${sourceNote(sent.source)}${shown}`, { ...details, status: answer.duplicate ? 'duplicate' : sendLike ? 'delivered' : 'done', ...kept });
}

/** The call to the channel plugin failed: unavailable before acting, or lost after it may have acted. */
export function describeLostDelivery(error: KernelError, sent: Sent): FamilyToolError {
  const { channel, action } = sent;
  const details = { ...baseDetails(sent), pluginId: channel.pluginId, cause: error.code };
  if (refusedBeforeActing(error)) {
    return new FamilyToolError('CHANNEL_UNAVAILABLE', `channel "${channel.id}" could not take "${action}": ${error.message}. Nothing was sent.`, undefined, { ...details, status: 'failed' });
  }
  const what = SEND_LIKE.has(action) ? 'delivery unknown' : 'outcome unknown';
  return new FamilyToolError(
    'DELIVERY_UNKNOWN',
    `${what}: channel "${channel.id}" did not confirm "${action}" (${error.message}); it may have reached its destination.`,
    'Check whether it arrived before sending it again.',
    { ...details, status: 'delivery_unknown' },
  );
}
