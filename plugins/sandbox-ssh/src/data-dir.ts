import { mkdtempSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

let fallback: string | undefined;

/**
 * The plugin's private data directory: the one the kernel created for it (owner-only, kept
 * across restarts), or without a kernel (tests, a library user) a private temp directory
 * made once per process.
 */
export function sshPluginDataDir(): string {
  const given = process.env.PINCER_PLUGIN_DATA_DIR;
  if (given) return given;
  fallback ??= mkdtempSync(join(tmpdir(), 'pincer-plugin-data-')); // mkdtemp creates it 0700
  return fallback;
}

/** Where a kernel with this environment keeps the ssh plugin's data (for `pincer sandbox prune`). */
export function sshDataDirFor(env: NodeJS.ProcessEnv, pluginId = 'sandbox-ssh'): string {
  const state = env.PINCER_STATE_DIR ? resolve(env.PINCER_STATE_DIR) : join(homedir(), '.pincer', 'state');
  return join(state, 'plugins', pluginId);
}

/** The sync states live in their own folder of the data directory. */
export const COPY_STATES_FOLDER = 'copies';
