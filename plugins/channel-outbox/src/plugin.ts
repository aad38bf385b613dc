/**
 * The local outbox channel: every message action is appended, durably and once, to a JSONL
 * journal that an operator reads with `pincer outbox tail`. A send is acknowledged only after
 * its line is on disk; a retried call (same idempotency key) is answered with the first record.
 */
import { Journal, JournalWriteError, type JournalRecord } from '../../../sdk/journal/index.js';
import { definePlugin, type ChannelDefinition, type ChannelRequest } from '../../../sdk/plugin-api.js';
import type { ChannelActionResult } from '../../../protocol/index.js';
import { OUTBOX_ACTIONS, outboxDir, parseOutboxSettings } from './settings.js';

export const OUTBOX_JOURNAL_NAME = 'outbox';
const MAX_READ = 50;

function perform(journal: Journal, request: ChannelRequest): ChannelActionResult {
  const { channel, action, params, source, idempotencyKey } = request;
  if (action === 'read') {
    const to = typeof params.to === 'string' ? params.to : undefined;
    const limit = Math.min(Math.max(Number(params.limit) || 20, 1), MAX_READ);
    // A session reads back what it wrote: the outbox holds every session's messages.
    const mine = (r: JournalRecord) => (r.source as { sessionKey?: unknown } | undefined)?.sessionKey === source.sessionKey;
    const records = journal.recent(limit, (r: JournalRecord) => r.channel === channel && mine(r) && (to === undefined || r.to === to));
    return { status: 'ok', data: { messages: records.map(({ seq, at, action: kind, to: target, message, source: from }) => ({ id: String(seq), at, action: kind, to: target, message, source: from })) } };
  }
  const { to, message, ...rest } = params;
  try {
    const { record, duplicate } = journal.append(idempotencyKey, { channel, action, source, ...(to !== undefined ? { to } : {}), ...(message !== undefined ? { message } : {}), ...(Object.keys(rest).length ? { params: rest } : {}) });
    return { status: 'ok', messageId: String(record.seq), attempts: 1, ...(duplicate ? { duplicate: true } : {}) };
  } catch (error) {
    if (!(error instanceof JournalWriteError)) throw error;
    return { status: error.recorded === false ? 'failed' : 'unknown', detail: error.message, attempts: 1 };
  }
}

export function createOutboxPlugin() {
  let journal: Journal | undefined;
  const plugin = definePlugin({
    // Several instances (different dirs or channel ids) may run side by side under their own ids.
    id: process.env.PINCER_PLUGIN_ID ?? 'channel-outbox',
    version: '0.1.0',
    family: 'channel',
    channels: [] as ChannelDefinition[],
    activate({ settings }) {
      const parsed = parseOutboxSettings(settings);
      journal = new Journal({ dir: outboxDir(parsed), name: OUTBOX_JOURNAL_NAME, maxFileBytes: parsed.maxFileBytes, keepFiles: parsed.keepFiles });
      const open = journal;
      plugin.channels!.push({
        id: parsed.channel,
        actions: [...(parsed.actions ?? OUTBOX_ACTIONS)],
        description: parsed.description ?? "a local outbox an operator reads (pincer outbox tail)",
        handle: (request) => perform(open, request),
      });
    },
    deactivate() {
      journal?.close();
      journal = undefined;
    },
  });
  return plugin;
}
