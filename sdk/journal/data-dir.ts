import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

let fallback: string | undefined;

/**
 * The plugin's private data directory: `$PINCER_PLUGIN_DATA_DIR` (owner-only, kept across
 * restarts, created by the kernel), or without one (a test harness, a hand start) a private
 * temp directory created once per process.
 */
export function privateDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.PINCER_PLUGIN_DATA_DIR;
  if (given) return given;
  fallback ??= mkdtempSync(path.join(os.tmpdir(), 'pincer-plugin-data-')); // mkdtemp creates it 0700
  return fallback;
}
