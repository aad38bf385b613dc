import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export interface AtomicWriteOptions {
  /** Called after the temp file is durable and right before the rename: the TOCTOU re-check. */
  beforeRename?: () => Promise<void>;
}

/**
 * Replace `target` with `data` so that a reader (or a crash) only ever sees the
 * old file or the whole new one: write a temp file in the SAME directory (rename
 * is atomic only within one file system), fsync it, then rename it into place and
 * fsync the directory. The temp file is removed on any failure.
 */
export async function writeFileAtomic(target: string, data: Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.pincer-tmp`);
  // Keep the permissions of a file being replaced; new files get the umask default.
  const mode = await fs.stat(target).then((s) => s.mode & 0o7777, () => 0o666);
  let renamed = false;
  try {
    const handle = await fs.open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await options.beforeRename?.();
    await fs.rename(temp, target);
    renamed = true;
    await syncDirectory(dir);
  } finally {
    if (!renamed) await fs.rm(temp, { force: true });
  }
}

/** Make the rename itself durable; some file systems refuse fsync on a directory, which is fine. */
async function syncDirectory(dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Best effort: the data is already durable in the renamed file.
  }
}
