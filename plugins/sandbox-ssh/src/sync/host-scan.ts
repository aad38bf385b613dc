import { lstatSync, readdirSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import type { ExcludeFilter } from './excludes.js';

/** `f` regular file, `d` directory, `l` symbolic link (never followed). */
export type EntryKind = 'f' | 'd' | 'l';

export interface HostEntry {
  kind: EntryKind;
  mode: number;
  size: number;
  mtimeMs: number;
  /** Changes whenever the entry does: content (size, times, inode), mode, or link target. */
  stamp: string;
  link?: string;
  /** A regular file's identity at the scan: what is packed must be this very inode. */
  dev?: number;
  ino?: number;
}

export interface ScanOptions {
  /** Upload regular files with more than one hard link too (the plugin's `allowHardLinks`). */
  allowHardLinks?: boolean;
  /** Receives the regular files held back because they have more than one hard link. */
  hardLinked?: Set<string>;
}

export function hostStampOf(stat: Stats, link?: string): string {
  const mode = stat.mode & 0o7777;
  if (stat.isDirectory()) return `d:${mode.toString(8)}`;
  if (stat.isSymbolicLink()) return `l:${link}`;
  return `f:${mode.toString(8)}:${stat.size}:${stat.ino}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

function entryOf(path: string, stat: Stats): HostEntry | undefined {
  const kind: EntryKind | undefined = stat.isFile() ? 'f' : stat.isDirectory() ? 'd' : stat.isSymbolicLink() ? 'l' : undefined;
  if (!kind) return undefined; // sockets, FIFOs and devices are never copied
  const link = kind === 'l' ? readlinkSync(path) : undefined;
  const identity = kind === 'f' ? { dev: stat.dev, ino: stat.ino } : {};
  return { kind, mode: stat.mode & 0o7777, size: kind === 'f' ? stat.size : 0, mtimeMs: stat.mtimeMs, stamp: hostStampOf(stat, link), link, ...identity };
}

/**
 * Every entry under `root` that the filter keeps, by relative POSIX path, from metadata
 * alone (no file is read): a scan of 10,000 files costs a few tens of milliseconds, so it
 * runs before every operation. Synchronous on purpose: many tiny look-ups are far cheaper
 * this way than as promises. An entry that vanishes mid-scan is simply absent.
 *
 * A regular file with more than one hard link may share its inode with a file outside the
 * workspace (the host bridge refuses to read it for that reason): it is held back, never
 * uploaded, as if excluded, and named in `options.hardLinked`, unless `allowHardLinks`.
 */
export function scanHost(root: string, filter: ExcludeFilter, options: ScanOptions = {}): Map<string, HostEntry> {
  const out = new Map<string, HostEntry>();
  const pending = [''];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let names: string[];
    try {
      names = readdirSync(join(root, dir));
    } catch {
      continue;
    }
    for (const name of names) {
      const rel = dir ? `${dir}/${name}` : name;
      const abs = join(root, rel);
      let entry: HostEntry | undefined;
      let links = 1;
      try {
        const stat = lstatSync(abs);
        links = stat.nlink;
        entry = entryOf(abs, stat);
      } catch {
        continue;
      }
      if (!entry || filter.excludes(rel, entry.kind === 'd')) continue;
      if (entry.kind === 'f' && links > 1 && !options.allowHardLinks) {
        options.hardLinked?.add(rel);
        continue;
      }
      out.set(rel, entry);
      if (entry.kind === 'd') pending.push(rel);
    }
  }
  return out;
}
