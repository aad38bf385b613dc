import { lstatSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Raised when no private directory can hold the patch journal. */
export class JournalDirError extends Error {
  override readonly name = 'JournalDirError';
}

/**
 * The plugin's private data directory: `PINCER_PLUGIN_DATA_DIR` (created 0700 by the host),
 * else a per-user directory under the system temp dir, stable across restarts so a restarted
 * plugin finds what its predecessor left. A shared temp dir is checked before use: a
 * directory another user planted (or a symlink) would let them read or forge journals.
 */
export function pluginDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const given = env.PINCER_PLUGIN_DATA_DIR;
  if (given !== undefined && given !== '') return given;
  const uid = process.getuid?.() ?? 'user';
  const dir = path.join(os.tmpdir(), `pincer-plugin-fs-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  const foreign = typeof uid === 'number' && stat.uid !== uid;
  if (!stat.isDirectory() || foreign || (stat.mode & 0o077) !== 0) {
    throw new JournalDirError(`${dir} is not a private directory of this user (a directory owned by this user with mode 0700); set PINCER_PLUGIN_DATA_DIR`);
  }
  return dir;
}
