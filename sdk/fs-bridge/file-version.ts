import type { BigIntStats } from 'node:fs';

/**
 * The content version of a file (WorkspaceStat.version): identity (device, inode), size
 * and the nanosecond modification and change times. A write in place changes mtime and
 * ctime, a replace changes the inode, so two equal versions mean "not touched in between".
 * Opaque to callers; only compared for equality by the same backend.
 */
export function fileVersion(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** The metadata every backend reports beside type and size: permission bits, link count, version. */
export function fileFacts(stat: BigIntStats): { mode: number; nlink: number; version?: string } {
  return {
    mode: Number(stat.mode & 0o7777n),
    nlink: Number(stat.nlink),
    ...(stat.isFile() ? { version: fileVersion(stat) } : {}),
  };
}
