/**
 * The webhook channel: each message action is POSTed as JSON to the configured URL, signed
 * with an HMAC of the body (see sign.ts), retried with backoff. The answer never says "failed"
 * for a message that may have reached the endpoint: that is "delivery unknown".
 */
import type { ChannelActionResult } from '../../../protocol/index.js';
import { definePlugin, type ChannelDefinition, type ChannelRequest } from '../../../sdk/plugin-api.js';
import { deliver } from './deliver.js';
import { parseWebhookSettings, type WebhookSettings } from './settings.js';

function requestBody(request: ChannelRequest): string {
  const { to, message, ...params } = request.params;
  return JSON.stringify({
    id: request.idempotencyKey,
    channel: request.channel,
    action: request.action,
    ...(to !== undefined ? { to } : {}),
    ...(message !== undefined ? { message } : {}),
    ...(Object.keys(params).length ? { params } : {}),
    source: request.source,
  });
}

async function perform(settings: WebhookSettings & { key: Buffer }, request: ChannelRequest, signal: AbortSignal): Promise<ChannelActionResult> {
  const body = requestBody(request);
  const bytes = Buffer.byteLength(body);
  if (bytes > settings.maxBodyBytes) return { status: 'failed', attempts: 0, detail: `the request would be ${bytes} bytes; this webhook sends at most ${settings.maxBodyBytes}` };
  return deliver({
    url: new URL(settings.url),
    key: settings.key,
    body,
    deliveryId: request.idempotencyKey,
    timeoutMs: settings.timeoutMs,
    retries: settings.retries,
    backoffMs: settings.backoffMs,
    maxBackoffMs: settings.maxBackoffMs,
    deadline: request.deadline,
    signal,
  });
}

export function createWebhookPlugin() {
  const plugin = definePlugin({
    // One instance per endpoint, each under its own plugin id.
    id: process.env.PINCER_PLUGIN_ID ?? 'channel-webhook',
    version: '0.1.0',
    family: 'channel',
    channels: [] as ChannelDefinition[],
    activate({ settings }) {
      const parsed = parseWebhookSettings(settings);
      plugin.channels!.push({
        id: parsed.channel,
        actions: [...parsed.actions],
        description: parsed.description ?? "an HTTP webhook",
        handle: (request, ctx) => perform(parsed, request, ctx.signal),
      });
    },
  });
  return plugin;
}
