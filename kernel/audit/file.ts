/**
 * The trail's file: JSON lines appended to `audit.jsonl` in sdk/journal's layout (rotated to
 * `audit.000001.jsonl`, ... at a size limit, the oldest deleted past `keepFiles`).
 *
 * Writes are synchronous `write(2)`s of whole lines to an O_APPEND descriptor, so records of
 * several kernels sharing the file never interleave mid-line and keep the order they were
 * decided in. The disk flush is the expensive part (milliseconds); it is asynchronous and
 * shared: every denial waiting for it is covered by one `fdatasync`, started after its line was
 * written (group commit), and nothing blocks the event loop on the disk.
 */
import { closeSync, fdatasync, fdatasyncSync, fstatSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { activeFile, rotatedFile, rotatedFiles } from '../../sdk/journal/files.js';

export interface AuditFileOptions {
  dir: string;
  name: string;
  maxFileBytes: number;
  keepFiles: number;
}

/** A rotation lock older than this was left by a process that died while rotating. */
const STALE_LOCK_MS = 10_000;

export class AuditFile {
  readonly path: string;
  #fd: number | undefined;
  #ino = 0;
  #size = 0;
  /** The flush in progress, and the one queued behind it for lines written after it began. */
  #flushing: Promise<void> | undefined;
  #next: Promise<void> | undefined;

  constructor(private readonly options: AuditFileOptions) {
    this.path = activeFile(options.dir, options.name);
  }

  /** Appends lines (each ending in a newline) to the page cache. Throws what the file system throws. */
  write(lines: string): void {
    const bytes = Buffer.from(lines);
    this.#open();
    if (this.#size > 0 && this.#size + bytes.length > this.options.maxFileBytes) this.#rotate();
    for (let written = 0; written < bytes.length; ) written += writeSync(this.#fd!, bytes, written);
    this.#size += bytes.length;
  }

  /** Resolves once every line written so far is on disk. */
  flush(): Promise<void> {
    if (this.#fd === undefined) return Promise.resolve();
    if (this.#flushing) {
      // The running flush may have begun before the latest lines: they need one more.
      this.#next ??= this.#flushing.then(this.#again, this.#again);
      return this.#next;
    }
    const fd = this.#fd;
    this.#flushing = new Promise<void>((resolve, reject) => fdatasync(fd, (error) => (error ? reject(error) : resolve()))).finally(() => {
      this.#flushing = undefined;
    });
    return this.#flushing;
  }

  readonly #again = (): Promise<void> => {
    this.#next = undefined;
    return this.flush();
  };

  /** Waits for pending flushes, then closes the descriptor. */
  async close(): Promise<void> {
    await Promise.allSettled([this.#flushing, this.#next]);
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  /** Opens the active file, or reopens it when another kernel rotated it away under us. */
  #open(): void {
    if (this.#fd !== undefined && this.#inodeOfPath() === this.#ino) return;
    if (this.#fd !== undefined) this.#retire(this.#fd);
    mkdirSync(this.options.dir, { recursive: true, mode: 0o700 });
    this.#fd = openSync(this.path, 'a', 0o600);
    const stat = fstatSync(this.#fd);
    this.#ino = stat.ino;
    this.#size = stat.size;
    // A flushed denial in a file whose name never reached the disk would be lost with it (opens are rare).
    if (stat.size === 0) syncDir(this.options.dir);
  }

  #inodeOfPath(): number | undefined {
    try {
      return statSync(this.path).ino;
    } catch {
      return undefined;
    }
  }

  /**
   * Renames the active file to the next rotated name and starts a new one. One kernel rotates
   * at a time (an exclusive lock file); the others notice the new inode at their next write.
   */
  #rotate(): void {
    const lock = path.join(this.options.dir, `${this.options.name}.rotate.lock`);
    // Taken: another kernel is rotating this moment; this batch lands in the file it renames.
    if (!takeLock(lock)) return;
    try {
      if (this.#inodeOfPath() === this.#ino) {
        const last = rotatedFiles(this.options.dir, this.options.name).at(-1)?.index ?? 0;
        renameSync(this.path, rotatedFile(this.options.dir, this.options.name, last + 1));
        for (const old of rotatedFiles(this.options.dir, this.options.name).slice(0, -this.options.keepFiles)) rmSync(old.file, { force: true });
      }
    } finally {
      rmSync(lock, { force: true });
    }
    this.#reopen();
  }

  #reopen(): void {
    this.#ino = -1; // forces #open to take whatever file is active now
    this.#open();
  }

  /** Flushes and closes a descriptor we stop writing to, once no flush still uses it. */
  #retire(fd: number): void {
    // Lines already written there may be denials whose flush has not started: flush them now.
    fdatasyncSync(fd);
    const inUse = [this.#flushing, this.#next].filter(Boolean);
    if (inUse.length === 0) closeSync(fd);
    else void Promise.allSettled(inUse).then(() => closeSync(fd));
  }
}

function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function takeLock(lock: string): boolean {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs < STALE_LOCK_MS) return false;
        rmSync(lock, { force: true });
      } catch {
        // removed meanwhile: try again
      }
    }
  }
  return false;
}
