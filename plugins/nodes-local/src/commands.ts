/**
 * The commands of the local node (this machine): status and information read from the OS, and
 * notifications, which a headless machine keeps in an outbox journal (`pincer outbox tail
 * --dir <notificationsDir>` shows them). No camera, no screen: nothing here returns media.
 */
import os from 'node:os';
import type { Journal } from '../../../sdk/journal/index.js';
import type { NodeCommandHandler } from '../../../sdk/plugin-api.js';

const MAX_TEXT = 4096;

function text(params: Record<string, unknown>, key: string, required: boolean): string {
  const value = params[key];
  if (value === undefined && !required) return '';
  if (typeof value !== 'string' || (required && !value.trim())) throw new Error(`"${key}" must be a ${required ? 'non-empty ' : ''}string`);
  if (value.length > MAX_TEXT) throw new Error(`"${key}" is ${value.length} characters; at most ${MAX_TEXT}`);
  return value;
}

export function localCommands(notifications: Journal): Record<string, NodeCommandHandler> {
  return {
    'device.status': () => ({
      hostname: os.hostname(),
      platform: os.platform(),
      uptimeSeconds: Math.round(os.uptime()),
      loadavg: os.loadavg().map((load) => Math.round(load * 100) / 100),
      memory: { totalBytes: os.totalmem(), freeBytes: os.freemem() },
      time: new Date().toISOString(),
    }),
    'device.info': () => ({
      hostname: os.hostname(),
      platform: os.platform(),
      release: os.release(),
      arch: os.arch(),
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      node: process.version,
    }),
    'device.health': () => {
      const perCpu = os.loadavg()[0] / Math.max(1, os.cpus().length);
      const memoryUsed = 1 - os.freemem() / os.totalmem();
      return { ok: perCpu < 4 && memoryUsed < 0.98, loadPerCpu: Math.round(perCpu * 100) / 100, memoryUsed: Math.round(memoryUsed * 1000) / 1000 };
    },
    'system.notify': (params, ctx) => {
      const { record, duplicate } = notifications.append(ctx.request.idempotencyKey, {
        channel: 'notifications',
        action: 'notify',
        title: text(params, 'title', false),
        message: text(params, 'body', true),
        source: ctx.request.source,
      });
      return { notified: true, id: String(record.seq), ...(duplicate ? { duplicate: true } : {}) };
    },
    'notifications.list': () => ({
      notifications: notifications.recent(20).map(({ seq, at, title, message }) => ({ id: String(seq), at, title, body: message })),
    }),
  };
}
