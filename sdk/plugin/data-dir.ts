import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PLUGIN_DATA_DIR_ENV } from '../../protocol/index.js';

let fallback: string | undefined;

/**
 * The plugin's private data directory: the one its kernel created (owner-only, kept across
 * restarts), or, when there is none (a test harness, a hand start), a private temp directory
 * created once per process.
 * @since 1
 */
export function pluginDataDir(): string {
  const given = process.env[PLUGIN_DATA_DIR_ENV];
  if (given) return given;
  fallback ??= mkdtempSync(path.join(os.tmpdir(), 'pincer-plugin-data-')); // mkdtemp creates it 0700
  return fallback;
}
