/**
 * Static manifests (pincer-plugin.json) of the bundled tool and backend plugins,
 * built from the same definitions the plugins serve, so lazy activation sees
 * exactly what a running plugin would answer in its handshake.
 *
 *   npm run build && node dist/plugins/gen-manifests.js          (writes, from the repo root)
 *   node dist/plugins/gen-manifests.js --check                    (exit 1 when a file is stale)
 *
 * test/tools/manifests.test.ts fails when a committed manifest drifts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PROTOCOL_VERSION } from '../protocol/index.js';
import { pluginContributions } from '../sdk/plugin/define.js';
import type { PluginDefinition } from '../sdk/plugin-api.js';
import { fsPlugin } from './fs/src/plugin.js';
import { createShellPlugin } from './shell/src/plugin.js';
import { createSandboxLocalPlugin } from './sandbox-local/src/plugin.js';
import { createSkillsPlugin } from './skills/src/plugin.js';

/** Plugin folder (under plugins/) → its definition. */
export const BUNDLED_PLUGINS: Record<string, PluginDefinition> = {
  fs: fsPlugin,
  shell: createShellPlugin(),
  'sandbox-local': createSandboxLocalPlugin(),
  skills: createSkillsPlugin(),
};

export function buildManifest(plugin: PluginDefinition): Record<string, unknown> {
  const contributes = pluginContributions(plugin);
  // Round-trip through JSON so the comparison sees what the file holds (no undefined keys).
  return JSON.parse(JSON.stringify({ id: plugin.id, version: plugin.version, protocolVersion: PROTOCOL_VERSION, contributes })) as Record<string, unknown>;
}

export function manifestFile(root: string, folder: string): string {
  return path.join(root, 'plugins', folder, 'pincer-plugin.json');
}

export function renderManifest(plugin: PluginDefinition): string {
  return `${JSON.stringify(buildManifest(plugin), null, 2)}\n`;
}

/** Write (or with `check`, compare) every bundled manifest; returns the stale files. */
export function syncManifests(root: string, check: boolean): string[] {
  const stale: string[] = [];
  for (const [folder, plugin] of Object.entries(BUNDLED_PLUGINS)) {
    const file = manifestFile(root, folder);
    const wanted = renderManifest(plugin);
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // missing: stale
    }
    if (current === wanted) continue;
    stale.push(file);
    if (!check) writeFileSync(file, wanted);
  }
  return stale;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const check = process.argv.includes('--check');
  const stale = syncManifests(process.cwd(), check);
  for (const file of stale) process.stdout.write(`${check ? 'stale' : 'wrote'} ${path.relative(process.cwd(), file)}\n`);
  if (check && stale.length > 0) process.exit(1);
}
