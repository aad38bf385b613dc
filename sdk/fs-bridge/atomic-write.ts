import fs, { type FileHandle } from 'node:fs/promises';
import { constants } from 'node:fs';
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
 *
 * On Linux the directory is held open and every name is addressed through
 * /proc/self/fd/<dir>, so a parent swapped for a symlink after the check cannot
 * redirect the temp file, the rename or the cleanup.
 */
export async function writeFileAtomic(target: string, data: Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(target);
  const dirHandle = await openPinnedDirectory(dir);
  const base = dirHandle === null ? dir : `/proc/self/fd/${dirHandle.fd}`;
  const name = path.basename(target);
  const temp = path.join(base, `.${name}.${randomBytes(6).toString('hex')}.pincer-tmp`);
  const final = path.join(base, name);
  let renamed = false;
  try {
    // Keep the permissions of a file being replaced; new files get the umask default.
    const mode = await fs.stat(final).then((s) => s.mode & 0o7777, () => 0o666);
    const handle = await fs.open(temp, 'wx', mode);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await options.beforeRename?.();
    await fs.rename(temp, final);
    renamed = true;
    // Make the rename itself durable; some file systems refuse fsync on a directory, which is fine.
    await dirHandle?.sync().catch(() => undefined);
  } finally {
    if (!renamed) await fs.rm(temp, { force: true });
    await dirHandle?.close();
  }
}

/** Open the directory and make sure the fd is the directory that was named; null without /proc. */
async function openPinnedDirectory(dir: string): Promise<FileHandle | null> {
  let handle: FileHandle;
  try {
    handle = await fs.open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch {
    return null; // let the write itself report the missing directory with its own error
  }
  const real = await fs.readlink(`/proc/self/fd/${handle.fd}`).catch(() => null);
  if (real === dir) return handle;
  await handle.close();
  if (real === null) return null;
  throw Object.assign(new Error(`Directory ${dir} was replaced while opening it`), { code: 'ELOOP' });
}
