/**
 * The local node: this machine as a paired device, so the `nodes` tool has a real node to
 * talk to. Settings: `node` (its id, default `local`), `name`, `notificationsDir` (default
 * `notifications` in the plugin's data directory).
 */
import os from 'node:os';
import path from 'node:path';
import * as z from 'zod';
import { Journal, privateDataDir } from '../../../sdk/journal/index.js';
import { definePlugin, type NodeDefinition } from '../../../sdk/plugin-api.js';
import { localCommands } from './commands.js';

const SettingsSchema = z.strictObject({
  node: z.string().default('local'),
  name: z.string().max(100).optional(),
  notificationsDir: z.string().min(1).optional(),
});

export function createLocalNodePlugin() {
  let notifications: Journal | undefined;
  const plugin = definePlugin({
    id: process.env.PINCER_PLUGIN_ID ?? 'nodes-local',
    version: '0.1.0',
    family: 'node',
    nodes: [] as NodeDefinition[],
    activate({ settings }) {
      const parsed = SettingsSchema.safeParse(settings ?? {});
      if (!parsed.success) throw new Error(`invalid settings: ${parsed.error.issues.map((i) => `settings.${i.path.join('.')}: ${i.message}`).join('; ')}`);
      const dir = parsed.data.notificationsDir ? path.resolve(parsed.data.notificationsDir) : path.join(privateDataDir(), 'notifications');
      notifications = new Journal({ dir, name: 'outbox' });
      plugin.nodes!.push({ id: parsed.data.node, name: parsed.data.name ?? os.hostname(), platform: os.platform(), commands: localCommands(notifications) });
    },
    deactivate() {
      notifications?.close();
      notifications = undefined;
    },
  });
  return plugin;
}
