import { realpathSync } from 'node:fs';
import { chmod, rename, rm, rmdir, symlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, join, posix } from 'node:path';
import { HostFsBridge } from '../../../../sdk/fs-bridge/index.js';

/** Why a remote change was not written to the host. */
export class HostWriteRefused extends Error {
  override readonly name = 'HostWriteRefused';
}

function isSafeRelative(path: string): boolean {
  return path !== '' && !path.startsWith('/') && !path.includes('\0') && path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

function underAny(path: string, roots: readonly string[]): boolean {
  const p = path.toLowerCase();
  return roots.some((r) => p === r || p.startsWith(`${r}/`));
}

/**
 * Writes remote changes onto the host through the host's path guard, as any write of the
 * local backend: the fs-bridge admits each path (mount, canonical path, read-only check) and
 * writes atomically. On top of it, a sync-back refuses what only a remote could try: a
 * malformed path, a path through a symbolic link (a link it created could point into
 * `.git`), a protected path, and a link that leaves the workspace.
 */
export class HostWriter {
  private readonly bridge: HostFsBridge;
  private readonly root: string;
  private readonly protectedRoots: string[];

  constructor(hostDir: string, protectedPaths: readonly string[]) {
    this.root = realpathSync(hostDir);
    this.bridge = new HostFsBridge({ mappings: [{ hostRoot: this.root, containerRoot: '/workspace' }] });
    this.protectedRoots = protectedPaths.map((p) => posix.normalize(p.replace(/\\/g, '/')).replace(/^\.\/|\/+$/g, '').toLowerCase());
  }

  /** The host path `rel` names, once admitted: no link on the way, not protected. */
  private async admit(rel: string, keepFinalSymlink = false): Promise<string> {
    if (!isSafeRelative(rel)) throw new HostWriteRefused(`not a plain relative path: ${JSON.stringify(rel)}`);
    if (underAny(rel, this.protectedRoots)) throw new HostWriteRefused('protected path');
    const guarded = await this.bridge.guard.admit(rel, { write: true, keepFinalSymlink });
    if (guarded.hostPath !== join(this.root, rel)) throw new HostWriteRefused('the path goes through a symbolic link on the host');
    return guarded.hostPath;
  }

  /** Replaces or creates a file; a new file gets the remote's permission bits (never set-id). */
  async writeFile(rel: string, data: Buffer, mode: number, isNew: boolean): Promise<void> {
    const abs = await this.admit(rel);
    await this.bridge.writeFile(rel, data);
    if (isNew) await chmod(abs, mode & 0o777 & ~process.umask());
  }

  async mkdir(rel: string): Promise<void> {
    await this.admit(rel);
    await this.bridge.mkdir(rel);
  }

  /** Creates or replaces a symbolic link whose target stays inside the workspace, off the protected paths. */
  async symlink(rel: string, target: string): Promise<void> {
    const resolved = posix.normalize(posix.join(posix.dirname(rel), target));
    if (target.startsWith('/') || resolved === '..' || resolved.startsWith('../') || target.includes('\0')) {
      throw new HostWriteRefused(`the link points outside the workspace (${target})`);
    }
    if (underAny(resolved, this.protectedRoots)) throw new HostWriteRefused(`the link points into a protected path (${target})`);
    const abs = await this.admit(rel, true);
    const temp = join(dirname(abs), `.${randomBytes(6).toString('hex')}.pincer-link`);
    await symlink(target, temp);
    try {
      await this.admit(rel, true);
      await rename(temp, abs);
    } finally {
      await rm(temp, { force: true });
    }
  }

  /** Removes a file or link, or an empty directory (never a tree). */
  async remove(rel: string, isDirectory: boolean): Promise<void> {
    const abs = await this.admit(rel, true);
    if (isDirectory) await rmdir(abs);
    else await this.bridge.remove(rel);
  }
}
