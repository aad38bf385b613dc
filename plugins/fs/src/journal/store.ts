import { createHash, randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pluginDataDir } from './data-dir.js';
import { isOwnerAlive, ownerTag } from './owner.js';
import type { JournalChange, JournalIntent, JournalState } from './types.js';

/** Journals this process is writing or recovering right now: never picked up by a second recovery. */
const inUse = new Set<string>();

async function writeDurably(file: string, data: Uint8Array | string): Promise<void> {
  const handle = await fs.open(file, 'wx', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** One patch's journal on disk: `intent.json` plus `backup-<i>` (the original bytes of updated files). */
export class Journal {
  constructor(
    readonly dir: string,
    public intent: JournalIntent,
  ) {}

  backup(index: number): Promise<Buffer> {
    return fs.readFile(path.join(this.dir, `backup-${index}`));
  }

  /** Replace intent.json atomically (temp, fsync, rename, fsync of the directory). */
  async setState(state: JournalState): Promise<void> {
    const next = { ...this.intent, state };
    const temp = path.join(this.dir, `intent.${randomBytes(4).toString('hex')}.tmp`);
    await writeDurably(temp, JSON.stringify(next));
    await fs.rename(temp, path.join(this.dir, 'intent.json'));
    await syncDir(this.dir);
    this.intent = next;
  }

  /** The patch is resolved (undone or finished): forget it. */
  async discard(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
    inUse.delete(this.dir);
  }

  /** Keep it on disk for a later recovery, and let this process pick it up again. */
  release(): void {
    inUse.delete(this.dir);
  }
}

/**
 * Patch journals under `<data dir>/patch-journal/<session hash>/<owner>.<id>/`. The intent
 * is written, with every backup, durably before the first change, so a crash at any later
 * point leaves enough on disk to return to all-old (or finish to all-new).
 */
export class JournalStore {
  constructor(readonly root: string) {}

  static fromEnv(env: NodeJS.ProcessEnv = process.env): JournalStore {
    return new JournalStore(path.join(pluginDataDir(env), 'patch-journal'));
  }

  #sessionDir(session: string): string {
    return path.join(this.root, createHash('sha256').update(session).digest('hex').slice(0, 32));
  }

  async begin(session: string, changes: JournalChange[], backups: ReadonlyMap<number, Uint8Array>): Promise<Journal> {
    const sessionDir = this.#sessionDir(session);
    await fs.mkdir(sessionDir, { recursive: true, mode: 0o700 });
    const dir = path.join(sessionDir, `${ownerTag()}.${randomBytes(6).toString('hex')}`);
    await fs.mkdir(dir, { mode: 0o700 });
    inUse.add(dir);
    try {
      for (const [index, bytes] of backups) await writeDurably(path.join(dir, `backup-${index}`), bytes);
      const journal = new Journal(dir, { format: 1, session, state: 'prepared', createdAt: new Date().toISOString(), changes });
      await journal.setState('prepared');
      await syncDir(sessionDir);
      return journal;
    } catch (error) {
      await fs.rm(dir, { recursive: true, force: true }).catch(() => undefined);
      inUse.delete(dir);
      throw error;
    }
  }

  /**
   * Journals of `session` left by a process that is gone (or by this one, after an undo that
   * could not finish), oldest first, each claimed for the caller. A directory without an
   * intent is a patch that crashed before its first change: it is removed.
   */
  async pending(session: string): Promise<Journal[]> {
    const sessionDir = this.#sessionDir(session);
    const names = await fs.readdir(sessionDir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    const found: Journal[] = [];
    for (const name of names) {
      const dir = path.join(sessionDir, name);
      const owner = name.split('.').slice(0, 2).join('.');
      if (inUse.has(dir) || (owner !== ownerTag() && isOwnerAlive(owner))) continue;
      const text = await fs.readFile(path.join(dir, 'intent.json'), 'utf8').catch(() => undefined);
      if (text === undefined) {
        await fs.rm(dir, { recursive: true, force: true });
        continue;
      }
      inUse.add(dir);
      found.push(new Journal(dir, JSON.parse(text) as JournalIntent));
    }
    return found.sort((a, b) => a.intent.createdAt.localeCompare(b.intent.createdAt));
  }
}
