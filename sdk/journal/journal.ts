/**
 * An append-only JSONL journal for plugins that must not lose or repeat a record: each append
 * is one line with a sequence number and the caller's idempotency id, written and fsynced
 * before `append` returns; files rotate at a size limit. Reopening after a crash or a restart
 * drops a torn last line (it was never acknowledged), continues the sequence, and remembers the
 * ids of the current and previous file, so a retried call is recognized instead of written twice.
 */
import { closeSync, fdatasyncSync, fstatSync, ftruncateSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, truncateSync, writeSync } from 'node:fs';
import { activeFile, parseLines, rotatedFile, rotatedFiles } from './files.js';
import { lockJournalDir } from './lock.js';

export interface JournalOptions {
  dir: string;
  /** File name stem (default `journal`). */
  name?: string;
  /** Rotate before a file would grow past this many bytes (default 8 MiB). */
  maxFileBytes?: number;
  /** Rotated files to keep; 0 (the default) keeps them all. */
  keepFiles?: number;
}

export interface JournalRecord {
  seq: number;
  id: string;
  at: string;
  [field: string]: unknown;
}

/** An append that did not complete. `recorded: false` means the line is certainly not in the journal. */
export class JournalWriteError extends Error {
  override readonly name = 'JournalWriteError';
  constructor(
    message: string,
    readonly recorded: false | 'unknown',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;

function readRecords(file: string): JournalRecord[] {
  try {
    return parseLines(readFileSync(file, 'utf8')).records.filter((r): r is JournalRecord => typeof (r as JournalRecord)?.seq === 'number');
  } catch {
    return [];
  }
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export class Journal {
  readonly file: string;
  #fd: number;
  #size: number;
  #lastSeq = 0;
  /** Ids of the current file, and of the previous one (the window in which a retry is recognized). */
  #ids = new Map<string, number>();
  #previousIds = new Map<string, number>();
  readonly #release: () => void;
  readonly #name: string;
  readonly #maxFileBytes: number;

  constructor(private readonly options: JournalOptions) {
    this.#name = options.name ?? 'journal';
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    this.#release = lockJournalDir(options.dir);
    this.file = activeFile(options.dir, this.#name);
    try {
      this.#recover();
      this.#fd = openSync(this.file, 'a', 0o600);
      this.#size = fstatSync(this.#fd).size;
    } catch (error) {
      this.#release();
      throw error;
    }
  }

  #recover(): void {
    let text = '';
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const complete = text.lastIndexOf('\n') + 1;
    // A torn tail is a write that crashed before its fsync, so before its caller heard back.
    if (complete < text.length) truncateSync(this.file, Buffer.byteLength(text.slice(0, complete)));
    const rotated = rotatedFiles(this.options.dir, this.#name);
    const previous = rotated.length ? readRecords(rotated[rotated.length - 1].file) : [];
    const current = parseLines(text.slice(0, complete)).records.filter((r): r is JournalRecord => typeof (r as JournalRecord)?.seq === 'number');
    for (const record of previous) this.#previousIds.set(record.id, record.seq);
    for (const record of current) this.#ids.set(record.id, record.seq);
    this.#lastSeq = Math.max(0, ...previous.map((r) => r.seq), ...current.map((r) => r.seq));
  }

  /** The sequence number an id was recorded under, if it is in the current or previous file. */
  seqOf(id: string): number | undefined {
    return this.#ids.get(id) ?? this.#previousIds.get(id);
  }

  /** Appends one record (durably) unless `id` is already recorded; then returns the earlier one. */
  append(id: string, fields: Record<string, unknown>): { record: JournalRecord; duplicate: boolean } {
    const earlier = this.seqOf(id);
    if (earlier !== undefined) return { record: { seq: earlier, id, at: '' }, duplicate: true };
    const { seq: _s, id: _i, at: _a, ...rest } = fields;
    const record: JournalRecord = { seq: this.#lastSeq + 1, id, at: new Date().toISOString(), ...rest };
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    if (this.#size > 0 && this.#size + line.length > this.#maxFileBytes) this.#rotate();
    try {
      for (let written = 0; written < line.length; ) written += writeSync(this.#fd, line, written);
    } catch (cause) {
      // Cut the partial line back off; if even that fails, the line may or may not be there.
      try {
        ftruncateSync(this.#fd, this.#size);
      } catch {
        throw new JournalWriteError(`append to ${this.file} failed and could not be undone: ${(cause as Error).message}`, 'unknown', { cause });
      }
      throw new JournalWriteError(`append to ${this.file} failed: ${(cause as Error).message}`, false, { cause });
    }
    this.#size += line.length;
    this.#lastSeq = record.seq;
    this.#ids.set(id, record.seq);
    try {
      fdatasyncSync(this.#fd);
    } catch (cause) {
      throw new JournalWriteError(`${this.file} could not be flushed to disk: ${(cause as Error).message}`, 'unknown', { cause });
    }
    return { record, duplicate: false };
  }

  #rotate(): void {
    closeSync(this.#fd);
    const rotated = rotatedFiles(this.options.dir, this.#name);
    renameSync(this.file, rotatedFile(this.options.dir, this.#name, (rotated.at(-1)?.index ?? 0) + 1));
    this.#fd = openSync(this.file, 'a', 0o600);
    fsyncDir(this.options.dir);
    this.#size = 0;
    this.#previousIds = this.#ids;
    this.#ids = new Map();
    const keep = this.options.keepFiles ?? 0;
    if (keep > 0) for (const old of rotatedFiles(this.options.dir, this.#name).slice(0, -keep)) rmSync(old.file, { force: true });
  }

  /** The last `limit` records of the current file that pass `filter`, oldest first. */
  recent(limit: number, filter: (record: JournalRecord) => boolean = () => true): JournalRecord[] {
    return readRecords(this.file).filter(filter).slice(-limit);
  }

  close(): void {
    closeSync(this.#fd);
    this.#release();
  }
}
