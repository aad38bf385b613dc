/**
 * What a node's answer, or its failure, becomes for the model: small JSON text from generic
 * commands (a media-shaped or oversized answer is refused, whatever the command was called),
 * one image block from the dedicated media actions, and typed errors naming the node.
 */
import type { ToolContent } from '../gate/index.js';
import type { KernelError } from '../host/index.js';
import type { NodeEndpoint } from './endpoints.js';
import { refusedBeforeActing } from './endpoint-call.js';
import { FamilyToolError } from './results.js';

/** Largest generic answer shown to the model. */
export const MAX_PAYLOAD_TEXT = 32 * 1024;
/** Largest image a media action returns (base64 characters, about 5 MiB decoded). */
export const MAX_MEDIA_BASE64 = 7 * 1024 * 1024;
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

function looksLikeMedia(payload: unknown): boolean {
  return payload !== null && typeof payload === 'object' && typeof (payload as { base64?: unknown }).base64 === 'string';
}

export function payloadText(payload: unknown, command: string): string {
  if (looksLikeMedia(payload)) {
    throw new FamilyToolError('MEDIA_COMMAND_REFUSED', `${JSON.stringify(command)} answered with a media payload, which the generic surface does not carry.`, 'Use the dedicated media action for the command.');
  }
  const text = payload === undefined || payload === null ? 'null' : JSON.stringify(payload, null, 2);
  if (text.length > MAX_PAYLOAD_TEXT) {
    throw new FamilyToolError('PAYLOAD_TOO_LARGE', `${JSON.stringify(command)} answered ${text.length} characters; answers through this tool are limited to ${MAX_PAYLOAD_TEXT}.`, 'Ask the node for less (a narrower command or parameters).');
  }
  return text;
}

export function mediaContent(payload: unknown, nodeId: string, command: string): ToolContent {
  const media = payload as { mimeType?: unknown; base64?: unknown } | null;
  const mimeType = typeof media?.mimeType === 'string' ? media.mimeType.toLowerCase() : '';
  if (!looksLikeMedia(payload) || !IMAGE_TYPES.has(mimeType)) {
    throw new FamilyToolError('MEDIA_UNSUPPORTED', `node "${nodeId}" answered ${command} with ${mimeType ? `"${mimeType}"` : 'no image'}; this tool returns png, jpeg, gif and webp images only.`);
  }
  const data = media!.base64 as string;
  if (data.length > MAX_MEDIA_BASE64) throw new FamilyToolError('PAYLOAD_TOO_LARGE', `node "${nodeId}" answered ${command} with ${data.length} base64 characters; at most ${MAX_MEDIA_BASE64} are returned.`);
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) throw new FamilyToolError('MEDIA_UNSUPPORTED', `node "${nodeId}" answered ${command} with data that is not base64.`);
  return { type: 'image', data, mimeType };
}

function nodeCode(error: KernelError): unknown {
  const detail = error.data?.detail as { node?: unknown } | undefined;
  return detail?.node;
}

export function describeNodeFailure(error: KernelError, node: NodeEndpoint, command: string): FamilyToolError {
  const details = { node: node.id, command, pluginId: node.pluginId, cause: error.code };
  const what = `"${command}" on node "${node.id}"`;
  if (error.code === 'PLUGIN_CRASHED' || error.code === 'PLUGIN_STOPPED' || nodeCode(error) === 'NODE_DISCONNECTED') {
    return new FamilyToolError('NODE_DISCONNECTED', `node "${node.id}" disconnected while running "${command}" (${error.message}); the command may have partly run.`, 'Check the node\'s state (action "device_status") before running it again.', details);
  }
  if (error.code === 'PLUGIN_TIMEOUT') {
    return new FamilyToolError('NODE_TIMEOUT', `${what} did not answer in time (${error.message}); it may still be running.`, undefined, details);
  }
  if (refusedBeforeActing(error)) return new FamilyToolError('NODE_UNAVAILABLE', `node "${node.id}" could not take "${command}": ${error.message}. Nothing ran.`, undefined, details);
  return new FamilyToolError('NODE_COMMAND_FAILED', `${what} failed: ${error.message}`, undefined, details);
}
