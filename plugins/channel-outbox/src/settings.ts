/**
 * The outbox channel's settings (the plugin entry's `settings`), checked at activation so a
 * mistake fails the handshake with the key that is wrong.
 */
import path from 'node:path';
import * as z from 'zod';
import { privateDataDir } from '../../../sdk/journal/index.js';

/** Actions the outbox can perform; everything but `read` appends one record. */
export const OUTBOX_ACTIONS = ['send', 'broadcast', 'reply', 'thread-reply', 'react', 'edit', 'delete', 'read'] as const;

export const OutboxSettingsSchema = z.strictObject({
  /** The channel id runs and policy name (default `outbox`). */
  channel: z.string().default('outbox'),
  /** Journal directory (default `outbox` in the plugin's data directory); relative to the plugin's working directory. */
  dir: z.string().min(1).optional(),
  /** The subset of OUTBOX_ACTIONS to declare (default all). */
  actions: z.array(z.enum(OUTBOX_ACTIONS)).min(1).optional(),
  /** Rotate files at this size (default 8 MiB). */
  maxFileBytes: z.number().int().min(4096).optional(),
  /** Rotated files to keep; 0 keeps all (default). */
  keepFiles: z.number().int().min(0).optional(),
  description: z.string().max(300).optional(),
});
export type OutboxSettings = z.output<typeof OutboxSettingsSchema>;

export function parseOutboxSettings(raw: unknown): OutboxSettings {
  const parsed = OutboxSettingsSchema.safeParse(raw ?? {});
  if (!parsed.success) throw new Error(`invalid settings: ${parsed.error.issues.map((i) => `settings.${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export function outboxDir(settings: OutboxSettings): string {
  return settings.dir ? path.resolve(settings.dir) : path.join(privateDataDir(), 'outbox');
}
