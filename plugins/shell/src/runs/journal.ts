import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A background run this plugin started, as remembered across its own restarts. */
export interface JournalEntry {
  runId: string;
  sessionKey: string;
  command: string;
  startedAt: number;
  /** The backend instance that owns it: when the backend answers as another instance, the run is lost. */
  instance: string;
}

/** Enough to cover every run a backend keeps per session (running and finished), for many sessions. */
const MAX_ENTRIES = 1024;

/**
 * The journal's file in the plugin's private directory (`PINCER_PLUGIN_DATA_DIR`, 0700, made by
 * the kernel). Without one, the journal stays in memory: a private temp dir would not outlive
 * this process either, and outliving it is the journal's only purpose.
 */
export function journalFile(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env.PINCER_PLUGIN_DATA_DIR;
  if (!dir) return undefined;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return path.join(dir, 'runs.json');
}

/**
 * The runs this plugin started, kept in its data dir so that a restarted plugin can still
 * tell the model about them: the backend owns the runs themselves (and survives the plugin),
 * but when the backend restarted, only this record says that a run existed and is lost.
 * Without a file (`undefined`), it lives in memory only.
 */
export class RunJournal {
  #entries: JournalEntry[];

  constructor(private readonly file?: string) {
    this.#entries = file ? RunJournal.#load(file) : [];
  }

  static #load(file: string): JournalEntry[] {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      return Array.isArray(parsed) ? (parsed as JournalEntry[]).filter((e) => typeof e?.runId === 'string' && typeof e?.instance === 'string') : [];
    } catch {
      return []; // first start, or a damaged file: nothing to remember
    }
  }

  entries(sessionKey: string): JournalEntry[] {
    return this.#entries.filter((e) => e.sessionKey === sessionKey);
  }

  get(runId: string, sessionKey: string): JournalEntry | undefined {
    return this.#entries.find((e) => e.runId === runId && e.sessionKey === sessionKey);
  }

  record(entry: JournalEntry): void {
    this.#entries = [...this.#entries, entry].slice(-MAX_ENTRIES);
    this.#save();
  }

  forget(runIds: readonly string[]): void {
    if (runIds.length === 0) return;
    this.#entries = this.#entries.filter((e) => !runIds.includes(e.runId));
    this.#save();
  }

  #save(): void {
    if (!this.file) return;
    const temp = `${this.file}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(this.#entries), { mode: 0o600 });
      renameSync(temp, this.file);
    } catch {
      // Best effort: the runs themselves live in the backend; only telling "lost" after a restart degrades.
    }
  }
}
