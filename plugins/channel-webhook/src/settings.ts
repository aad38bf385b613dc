/**
 * The webhook channel's settings, checked at activation (a mistake fails the handshake naming
 * the key). The HMAC secret comes from `secret` or, better, `secretFile` (kept out of the
 * config, which the `gateway` tool shows redacted but still shows).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as z from 'zod';

export const WEBHOOK_ACTIONS = ['send', 'broadcast', 'reply', 'thread-reply', 'react', 'edit', 'delete'] as const;

export const WebhookSettingsSchema = z
  .strictObject({
    channel: z.string().default('webhook'),
    url: z.url({ protocol: /^https?$/, error: 'url must be an http:// or https:// URL' }),
    secret: z.string().min(16, 'secret must be at least 16 characters').optional(),
    secretFile: z.string().min(1).optional(),
    actions: z.array(z.enum(WEBHOOK_ACTIONS)).min(1).default(['send', 'reply']),
    /** One attempt's deadline. */
    timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
    /** Attempts after the first. */
    retries: z.number().int().min(0).max(10).default(3),
    backoffMs: z.number().int().min(0).max(60_000).default(500),
    maxBackoffMs: z.number().int().min(0).max(300_000).default(8_000),
    /** Largest request body; a larger message is refused before anything is sent. */
    maxBodyBytes: z.number().int().min(1024).max(8 * 1024 * 1024).default(256 * 1024),
    description: z.string().max(300).optional(),
  })
  .refine((s) => (s.secret === undefined) !== (s.secretFile === undefined), { message: 'give exactly one of "secret" and "secretFile" (the HMAC signing key)' });
export type WebhookSettings = z.output<typeof WebhookSettingsSchema>;

export function parseWebhookSettings(raw: unknown): WebhookSettings & { key: Buffer } {
  const parsed = WebhookSettingsSchema.safeParse(raw ?? {});
  if (!parsed.success) throw new Error(`invalid settings: ${parsed.error.issues.map((i) => `settings${i.path.length ? `.${i.path.join('.')}` : ''}: ${i.message}`).join('; ')}`);
  const settings = parsed.data;
  const key = settings.secretFile ? readFileSync(path.resolve(settings.secretFile)) : Buffer.from(settings.secret!, 'utf8');
  // A trailing newline in a secret file is an editor's, not the secret's.
  const trimmed = settings.secretFile ? Buffer.from(key.toString('utf8').replace(/\r?\n$/, ''), 'utf8') : key;
  if (trimmed.length < 16) throw new Error(`invalid settings: settings.secretFile: the secret in ${settings.secretFile} is shorter than 16 bytes`);
  return { ...settings, key: trimmed };
}
