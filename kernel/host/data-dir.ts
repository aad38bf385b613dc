/**
 * Each plugin's private data directory (`PINCER_PLUGIN_DATA_DIR`): `<state dir>/plugins/<id>`,
 * owner-only (0700), created before the plugin starts. The directory must really be ours: a
 * symlink or a directory owned by someone else planted at that path is refused, not used.
 */
import { chmodSync, lstatSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PLUGIN_DATA_DIR_ENV } from '../../protocol/index.js';
import { KernelError } from './errors.js';

export { PLUGIN_DATA_DIR_ENV };

/** `$PINCER_STATE_DIR`, else `~/.pincer/state`. */
export function defaultStateDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.PINCER_STATE_DIR ? path.resolve(env.PINCER_STATE_DIR) : path.join(os.homedir(), '.pincer', 'state');
}

function refuse(pluginId: string, dir: string, why: string): KernelError {
  return new KernelError('SPAWN_FAILED', `plugin "${pluginId}": its data directory ${dir} ${why}; remove it (or set PINCER_STATE_DIR) and restart`, { pluginId });
}

export function pluginDataDirPath(stateDir: string, pluginId: string): string {
  return path.join(stateDir, 'plugins', pluginId);
}

/** Creates (or checks) the plugin's data directory and returns its path. */
export function ensurePluginDataDir(stateDir: string, pluginId: string): string {
  const dir = pluginDataDirPath(stateDir, pluginId);
  try {
    mkdirSync(path.dirname(dir), { recursive: true, mode: 0o700 });
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw refuse(pluginId, dir, `cannot be created (${(error as Error).message})`);
  }
  const stat = lstatSync(dir);
  if (!stat.isDirectory()) throw refuse(pluginId, dir, 'exists and is not a directory (a symlink is refused too)');
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) throw refuse(pluginId, dir, `is owned by uid ${stat.uid}, not by this kernel's user (${uid})`);
  if ((stat.mode & 0o077) !== 0) chmodSync(dir, 0o700); // tighten a directory created with a loose umask
  return dir;
}
