/**
 * The file-system calls skill loading makes, behind one interface: tests wrap it to count
 * calls (a snapshot reused must not touch the disk) and to make directories vanish mid-scan.
 */
import { constants, promises as fsp, type Dirent, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

export interface SkillFs {
  readdir(dir: string): Promise<Dirent[]>;
  lstat(path: string): Promise<Stats>;
  stat(path: string): Promise<Stats>;
  realpath(path: string): Promise<string>;
  /** Opens read-only and non-blocking (a FIFO cannot stall the scan), refusing a symlink as the last component. */
  openNoFollow(path: string): Promise<FileHandle>;
}

export const nodeSkillFs: SkillFs = {
  readdir: (dir) => fsp.readdir(dir, { withFileTypes: true }),
  lstat: (path) => fsp.lstat(path),
  stat: (path) => fsp.stat(path),
  realpath: (path) => fsp.realpath(path),
  openNoFollow: (path) => fsp.open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK),
};

/** A wrapper that counts every call by name (for tests and benchmarks). */
export function countingSkillFs(inner: SkillFs = nodeSkillFs): SkillFs & { counts: Record<keyof SkillFs, number>; total(): number } {
  const counts = { readdir: 0, lstat: 0, stat: 0, realpath: 0, openNoFollow: 0 };
  const wrapped = Object.fromEntries(
    (Object.keys(counts) as (keyof SkillFs)[]).map((name) => [name, (...args: unknown[]) => ((counts[name] += 1), (inner[name] as (...a: unknown[]) => unknown)(...args))]),
  ) as unknown as SkillFs;
  return Object.assign(wrapped, { counts, total: () => Object.values(counts).reduce((a, b) => a + b, 0) });
}

/** Error codes meaning "it is not there (any more)": a directory vanished mid-scan. */
export function isGone(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/**
 * Reads an open file that fstat said is `size` bytes, reading one byte more: a file that grew
 * meanwhile returns null (it is being written; a later scan sees it whole), never a cut copy.
 */
export async function readExactly(handle: FileHandle, size: number): Promise<Buffer | null> {
  const buffer = Buffer.alloc(size + 1);
  let total = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buffer, total, buffer.length - total, total);
    if (bytesRead === 0 || (total += bytesRead) === buffer.length) break;
  }
  return total > size ? null : buffer.subarray(0, total);
}
