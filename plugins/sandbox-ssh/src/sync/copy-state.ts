import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** What both sides held at the last sync of one path. */
export interface SyncedEntry {
  /** Host stamp (host-scan.ts) at the last sync. */
  host: string;
  /** Remote stamp (remote-records.ts) at the last sync. */
  remote: string;
  /** sha256 of a file's content at the last sync. */
  hash?: string;
}

/** One copy's sync state, kept on the host in the plugin's private data directory. */
export interface CopyState {
  /** Random id, also the first line of the copy's remote `meta`. */
  id: string;
  /** Remote directory name under `root`. */
  name: string;
  /** Canonical remote root. */
  root: string;
  entries: Map<string, SyncedEntry>;
  /** Paths of a batch that was sent but not confirmed: their remote content is ours, unknown. */
  pending: Set<string>;
  /** Paths both sides changed: each keeps its own version until they agree again. */
  conflicts: Map<string, { host: string; remote: string }>;
  /** A full push has completed since the copy was created. */
  complete: boolean;
}

interface StoredState {
  version: 1;
  id: string;
  name: string;
  root: string;
  entries: Record<string, [string, string, string?]>;
  pending: string[];
  conflicts: Record<string, [string, string]>;
  complete: boolean;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Sync states by copy key, each in `<dir>/<key>[-slot].json` with a `.lock` beside it naming
 * the process that uses it. A copy is used by one plugin process at a time (its sessions
 * share it); a second process sharing this data directory takes the next slot, i.e. a copy of
 * its own, so two processes never sync one remote directory from two baselines.
 */
export class CopyStateStore {
  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  /** Locks the first free slot of `key` and loads its state, if any. */
  claim(key: string): { file: string; state: CopyState | undefined; unlock(): void } {
    for (let slot = 1; ; slot++) {
      const base = join(this.dir, slot === 1 ? key : `${key}-${slot}`);
      if (!this.lock(`${base}.lock`)) continue;
      return { file: `${base}.json`, state: this.load(`${base}.json`), unlock: () => rmSync(`${base}.lock`, { force: true }) };
    }
  }

  private lock(file: string): boolean {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = Number(readFileSync(file, 'utf8').trim());
        if (Number.isInteger(owner) && owner > 0 && pidAlive(owner)) return false;
        rmSync(file, { force: true }); // left by a process that is gone
      }
    }
    return false;
  }

  private load(file: string): CopyState | undefined {
    let stored: StoredState;
    try {
      stored = JSON.parse(readFileSync(file, 'utf8')) as StoredState;
    } catch {
      return undefined;
    }
    if (stored.version !== 1) return undefined;
    return {
      id: stored.id,
      name: stored.name,
      root: stored.root,
      entries: new Map(Object.entries(stored.entries).map(([p, [host, remote, hash]]) => [p, { host, remote, hash }])),
      pending: new Set(stored.pending),
      conflicts: new Map(Object.entries(stored.conflicts).map(([p, [host, remote]]) => [p, { host, remote }])),
      complete: stored.complete,
    };
  }

  /** Written whole to a temp file and renamed: a crash leaves the old state or the new one. */
  save(file: string, state: CopyState): void {
    const stored: StoredState = {
      version: 1,
      id: state.id,
      name: state.name,
      root: state.root,
      entries: Object.fromEntries([...state.entries].map(([p, e]) => [p, e.hash ? [e.host, e.remote, e.hash] : [e.host, e.remote]])),
      pending: [...state.pending],
      conflicts: Object.fromEntries([...state.conflicts].map(([p, c]) => [p, [c.host, c.remote]])),
      complete: state.complete,
    };
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify(stored), { mode: 0o600 });
    renameSync(temp, file);
  }
}

/** All state files in a store directory (for prune): remote name → file. */
export function listStoredStates(dir: string): Array<{ file: string; name: string; root: string; lockFile: string }> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.json')).flatMap((n) => {
    const file = join(dir, n);
    try {
      const stored = JSON.parse(readFileSync(file, 'utf8')) as StoredState;
      return [{ file, name: stored.name, root: stored.root, lockFile: file.replace(/\.json$/, '.lock') }];
    } catch {
      return [];
    }
  });
}

/** True while a live process holds the lock. */
export function isLocked(lockFile: string): boolean {
  try {
    const owner = Number(readFileSync(lockFile, 'utf8').trim());
    return Number.isInteger(owner) && owner > 0 && pidAlive(owner);
  } catch {
    return false;
  }
}
