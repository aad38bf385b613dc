import { lstatSync, mkdirSync, readFileSync, readdirSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { openDirectoryChain } from './held-directory.js';

/** Every temp file an atomic write creates starts with this, so a leftover is recognizable. */
export const TEMP_PREFIX = '.pincer-tmp-';

/** A short temp name: the target's own name may use all 255 bytes a file system allows. */
export function tempName(): string {
  return `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`;
}

interface Entry {
  hostRoot: string;
  segments: readonly string[];
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/**
 * Where each in-flight temp file is recorded (one small file per write, named by the
 * writer's pid) before it is created, and forgotten once it was renamed or removed. A
 * backend killed mid-write leaves its record behind; `sweep` removes the temp files of
 * writers that are gone, through the same held-directory walk as any mutation, and only
 * when what it finds is still a regular file named like a temp file.
 */
export class TempJournal {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Record a temp file about to be created; the returned function forgets it. */
  record(hostRoot: string, segments: readonly string[]): () => void {
    const file = path.join(this.dir, `${process.pid}-${randomBytes(6).toString('hex')}.json`);
    writeFileSync(file, JSON.stringify({ hostRoot, segments } satisfies Entry), { mode: 0o600 });
    return () => {
      try {
        unlinkSync(file);
      } catch {
        // already gone
      }
    };
  }

  /**
   * Remove temp files recorded by processes that no longer run (and, with `ownToo`, by this
   * one: right after start nothing of ours is in flight). Returns how many were removed.
   */
  sweep(ownToo = false): number {
    let removed = 0;
    for (const name of readdirSync(this.dir)) {
      const pid = Number(/^(\d+)-/.exec(name)?.[1]);
      if (!Number.isInteger(pid) || (pid === process.pid ? !ownToo : processAlive(pid))) continue;
      const record = path.join(this.dir, name);
      try {
        if (removeRecordedTemp(JSON.parse(readFileSync(record, 'utf8')) as Entry)) removed += 1;
      } catch {
        // the workspace or its temp is gone: nothing left to clean
      }
      try {
        unlinkSync(record);
      } catch {
        // swept by a concurrent sweep
      }
    }
    return removed;
  }
}

function removeRecordedTemp(entry: Entry): boolean {
  const name = entry.segments.at(-1);
  if (name === undefined || !name.startsWith(TEMP_PREFIX)) return false;
  const dir = openDirectoryChain(entry.hostRoot, entry.segments.slice(0, -1), { input: name });
  try {
    if (lstatSync(dir.at(name), { throwIfNoEntry: false })?.isFile() !== true) return false;
    unlinkSync(dir.at(name));
    return true;
  } finally {
    dir.close();
  }
}
