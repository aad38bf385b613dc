import { createHash, randomBytes } from 'node:crypto';
import { existsSync, promises as fs, readdirSync } from 'node:fs';
import path from 'node:path';
import { pluginDataDir } from './data-dir.js';
import { isOwnerAlive, ownerTag } from './owner.js';
import type { JournalChange, JournalIntent } from './types.js';

/** Journals this process is writing or recovering right now: never picked up by a second recovery. */
const inUse = new Set<string>();

async function fsyncPath(file: string, flags: string): Promise<void> {
  const handle = await fs.open(file, flags, 0o600);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * One patch's journal: `<name>.json` (the intent, with the original bytes of every updated
 * file) and, once every change landed, `<name>.committed`.
 */
export class Journal {
  constructor(
    readonly file: string,
    readonly intent: JournalIntent,
  ) {}

  get committed(): boolean {
    return this.intent.state === 'committed';
  }

  async backup(index: number): Promise<Buffer> {
    const bytes = this.intent.backups[index];
    if (bytes === undefined) throw new Error(`the journal ${this.file} holds no backup of change ${index}`);
    return Buffer.from(bytes, 'base64');
  }

  /** Every change landed: from now on a recovery finishes the patch instead of undoing it. */
  async markCommitted(): Promise<void> {
    await fsyncPath(this.file.replace(/\.json$/, '.committed'), 'w');
    await fsyncPath(path.dirname(this.file), 'r');
    this.intent.state = 'committed';
  }

  /** The patch is resolved (undone or finished): forget it. */
  async discard(): Promise<void> {
    await fs.rm(this.file.replace(/\.json$/, '.committed'), { force: true });
    await fs.rm(this.file, { force: true });
    inUse.delete(this.file);
  }

  /** Keep it on disk for a later recovery, and let this process pick it up again. */
  release(): void {
    inUse.delete(this.file);
  }
}

/**
 * Patch journals under `<data dir>/patch-journal/<session hash>/<owner>.<id>.json`. The intent
 * is durable (written to a temp file, fsynced, renamed, directory fsynced) before the first
 * change, so a crash at any later point leaves enough to return to all-old (or finish all-new).
 */
export class JournalStore {
  constructor(readonly root: string) {}

  static fromEnv(env: NodeJS.ProcessEnv = process.env): JournalStore {
    return new JournalStore(path.join(pluginDataDir(env), 'patch-journal'));
  }

  /** Session → its journal directory; a hash per call was a tenth of a read's CPU here. */
  readonly #sessionDirs = new Map<string, string>();

  #sessionDir(session: string): string {
    let dir = this.#sessionDirs.get(session);
    if (dir === undefined) {
      dir = path.join(this.root, createHash('sha256').update(session).digest('hex').slice(0, 32));
      if (this.#sessionDirs.size >= 1024) this.#sessionDirs.clear(); // sessions come and go; stay bounded
      this.#sessionDirs.set(session, dir);
    }
    return dir;
  }

  async begin(session: string, changes: JournalChange[], backups: ReadonlyMap<number, Uint8Array>): Promise<Journal> {
    const dir = this.#sessionDir(session);
    await fs.mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `${ownerTag()}.${randomBytes(6).toString('hex')}.json`);
    const intent: JournalIntent = {
      format: 1,
      session,
      state: 'prepared',
      createdAt: new Date().toISOString(),
      changes,
      backups: Object.fromEntries([...backups].map(([i, bytes]) => [i, Buffer.from(bytes).toString('base64')])),
    };
    const temp = `${file}.tmp`;
    inUse.add(file);
    try {
      await fs.writeFile(temp, JSON.stringify(intent), { mode: 0o600, flag: 'wx' });
      await fsyncPath(temp, 'r+');
      await fs.rename(temp, file);
      await fsyncPath(dir, 'r');
      return new Journal(file, intent);
    } catch (error) {
      await fs.rm(temp, { force: true }).catch(() => undefined);
      inUse.delete(file);
      throw error;
    }
  }

  /**
   * Journals of `session` left by a process that is gone (or by this one, after an undo that
   * could not finish), oldest first, each claimed for the caller. A temp file left by a crash
   * before the intent was complete is removed: that patch had not changed anything yet.
   */
  async pending(session: string): Promise<Journal[]> {
    const dir = this.#sessionDir(session);
    // Every fs call asks, and almost always there is nothing: answer that without a thread-pool
    // round trip or a thrown ENOENT (existsSync does not throw), which cost a read a tenth of its time.
    if (!existsSync(dir)) return [];
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const found: Journal[] = [];
    for (const name of names) {
      const file = path.join(dir, name);
      const owner = name.split('.').slice(0, 2).join('.');
      if (inUse.has(file.replace(/\.tmp$/, '')) || (owner !== ownerTag() && isOwnerAlive(owner))) continue;
      if (name.endsWith('.tmp')) await fs.rm(file, { force: true });
      if (!name.endsWith('.json')) continue;
      const intent = JSON.parse(await fs.readFile(file, 'utf8')) as JournalIntent;
      if (names.includes(name.replace(/\.json$/, '.committed'))) intent.state = 'committed';
      inUse.add(file);
      found.push(new Journal(file, intent));
    }
    return found.sort((a, b) => a.intent.createdAt.localeCompare(b.intent.createdAt));
  }
}
