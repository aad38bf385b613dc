import fs from 'node:fs/promises';
import path from 'node:path';
import type { WorkspaceDirEntry } from '../../protocol/v1/workspace-types.js';

/**
 * List a directory with the metadata a file browser needs, from lstat so nothing
 * is followed: a symlink, socket or fifo is neither a file nor a directory, and a
 * type is never guessed from `isDirectory`. This is metadata only; reading an
 * entry still goes through the path guard and byte cap.
 */
export async function readDirectoryEntries(hostDir: string): Promise<WorkspaceDirEntry[]> {
  const names = await fs.readdir(hostDir);
  names.sort();
  return Promise.all(names.map((name) => describeEntry(hostDir, name)));
}

async function describeEntry(hostDir: string, name: string): Promise<WorkspaceDirEntry> {
  try {
    const stat = await fs.lstat(path.join(hostDir, name));
    return { name, isFile: stat.isFile(), isDirectory: stat.isDirectory(), size: stat.size, mtimeMs: stat.mtimeMs };
  } catch {
    // Gone between readdir and lstat: report the name only; absent fields mean "unknown".
    return { name };
  }
}
