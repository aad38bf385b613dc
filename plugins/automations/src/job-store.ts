/**
 * Jobs and their run history in the embedded store. A run is recorded, and its job's next
 * slot advanced, in one transaction before the run starts: a crash mid-run can leave a run
 * `interrupted`, never a slot that runs twice.
 */
import { Store, type Migration, type SqliteDatabase } from '../../../sdk/store/index.js';
import type { Schedule } from './schedule.js';

const MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'jobs and runs',
    up: `CREATE TABLE job (
           id TEXT PRIMARY KEY, agent_id TEXT NOT NULL, name TEXT NOT NULL, schedule TEXT NOT NULL, message TEXT NOT NULL,
           tools_allow TEXT NOT NULL, tools_allow_is_default INTEGER NOT NULL, session_key TEXT, created_by_session TEXT NOT NULL,
           enabled INTEGER NOT NULL, next_run_at INTEGER, last_run_at INTEGER, last_state TEXT, last_error TEXT,
           created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
         CREATE TABLE run (
           id INTEGER PRIMARY KEY AUTOINCREMENT, job_id TEXT NOT NULL REFERENCES job(id) ON DELETE CASCADE, slot_at INTEGER NOT NULL,
           started_at INTEGER NOT NULL, finished_at INTEGER, state TEXT NOT NULL, reason TEXT NOT NULL, task_id TEXT, error TEXT, reply TEXT);
         CREATE INDEX run_job ON run (job_id, id DESC);`,
  },
];

export interface Job {
  id: string;
  agentId: string;
  name: string;
  schedule: Schedule;
  message: string;
  toolsAllow: string[];
  /** The cap was defaulted to the creator's tools (the job asked for `*` or named none). */
  toolsAllowIsDefault: boolean;
  sessionKey?: string;
  createdBySession: string;
  enabled: boolean;
  nextRunAt?: number;
  lastRunAt?: number;
  lastState?: string;
  lastError?: string;
  createdAt: number;
  updatedAt: number;
}

export interface JobRun {
  id: number;
  jobId: string;
  slotAt: number;
  startedAt: number;
  finishedAt?: number;
  /** running | succeeded | failed | cancelled | skipped | interrupted */
  state: string;
  /** due | catch-up | manual | missed (skipped past the catch-up cap) */
  reason: string;
  taskId?: string;
  error?: string;
  reply?: string;
}

type Row = Record<string, unknown>;
const opt = <T>(v: unknown): T | undefined => (v === null ? undefined : (v as T));

function toJob(r: Row): Job {
  return {
    id: r.id as string, agentId: r.agent_id as string, name: r.name as string, schedule: JSON.parse(r.schedule as string) as Schedule, message: r.message as string,
    toolsAllow: JSON.parse(r.tools_allow as string) as string[], toolsAllowIsDefault: r.tools_allow_is_default === 1, sessionKey: opt(r.session_key),
    createdBySession: r.created_by_session as string, enabled: r.enabled === 1, nextRunAt: opt(r.next_run_at), lastRunAt: opt(r.last_run_at),
    lastState: opt(r.last_state), lastError: opt(r.last_error), createdAt: r.created_at as number, updatedAt: r.updated_at as number,
  };
}

function toRun(r: Row): JobRun {
  return {
    id: r.id as number, jobId: r.job_id as string, slotAt: r.slot_at as number, startedAt: r.started_at as number, finishedAt: opt(r.finished_at), state: r.state as string,
    reason: r.reason as string, taskId: opt(r.task_id), error: opt(r.error), reply: opt(r.reply),
  };
}

const RUN_HISTORY_PER_JOB = 200;

/**
 * The plugin is the only writer of its jobs, so it keeps them in memory too (write-through):
 * the scheduler reads every job on each arm, and 10,000 rows parsed per arm would cost far more
 * than the next-wake computation itself (bench/automations.bench.ts).
 */
export class JobStore {
  readonly #store: Store;
  #cache: Map<string, Job> | undefined;

  constructor(file: string) {
    this.#store = Store.open({ file, migrations: MIGRATIONS });
  }

  get file(): string {
    return this.#store.file;
  }

  #jobs(): Map<string, Job> {
    this.#cache ??= new Map(
      this.#store.read('listing jobs', (db) => db.prepare('SELECT * FROM job ORDER BY created_at, id').all()).map((r) => toJob(r as Row)).map((job) => [job.id, job]),
    );
    return this.#cache;
  }

  /** A write; if it does not commit, the cache (updated inside it) is dropped and reloaded from disk. */
  #write<T>(doing: string, fn: (db: SqliteDatabase) => T): T {
    try {
      return this.#store.write(doing, fn);
    } catch (error) {
      this.#cache = undefined;
      throw error;
    }
  }

  /** Re-reads one job inside a write (gone when deleted). */
  #refresh(db: SqliteDatabase, id: string): Job | undefined {
    const row = db.prepare('SELECT * FROM job WHERE id = ?').get(id) as Row | undefined;
    const job = row && toJob(row);
    if (this.#cache) {
      if (job) this.#cache.set(id, job);
      else this.#cache.delete(id);
    }
    return job;
  }

  /** Runs left `running` by a process that died: marked interrupted (their slots are not re-run). */
  markInterrupted(now: number): number {
    return this.#write('marking interrupted runs', (db) =>
      db.prepare("UPDATE run SET state = 'interrupted', finished_at = ?, error = 'the scheduler stopped while this run was in progress; it was not re-run' WHERE state = 'running'").run(now).changes,
    );
  }

  insert(job: Job): void {
    this.#write(`creating job ${job.id}`, (db) => {
      db.prepare(
        `INSERT INTO job (id, agent_id, name, schedule, message, tools_allow, tools_allow_is_default, session_key, created_by_session, enabled, next_run_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(job.id, job.agentId, job.name, JSON.stringify(job.schedule), job.message, JSON.stringify(job.toolsAllow), job.toolsAllowIsDefault ? 1 : 0, job.sessionKey ?? null, job.createdBySession, job.enabled ? 1 : 0, job.nextRunAt ?? null, job.createdAt, job.updatedAt);
      return this.#refresh(db, job.id);
    });
  }

  update(id: string, patch: Partial<Pick<Job, 'name' | 'schedule' | 'message' | 'enabled' | 'nextRunAt' | 'toolsAllow' | 'toolsAllowIsDefault' | 'sessionKey'>>, now: number): Job | undefined {
    return this.#write(`updating job ${id}`, (db) => {
      const columns: Record<string, unknown> = {
        name: patch.name, schedule: patch.schedule && JSON.stringify(patch.schedule), message: patch.message, enabled: patch.enabled === undefined ? undefined : patch.enabled ? 1 : 0,
        tools_allow: patch.toolsAllow && JSON.stringify(patch.toolsAllow), tools_allow_is_default: patch.toolsAllowIsDefault === undefined ? undefined : patch.toolsAllowIsDefault ? 1 : 0,
        session_key: patch.sessionKey,
      };
      const set = Object.entries(columns).filter(([, v]) => v !== undefined);
      if ('nextRunAt' in patch) set.push(['next_run_at', patch.nextRunAt ?? null]);
      db.prepare(`UPDATE job SET ${[...set.map(([k]) => `${k} = ?`), 'updated_at = ?'].join(', ')} WHERE id = ?`).run(...set.map(([, v]) => v), now, id);
      return this.#refresh(db, id);
    });
  }

  remove(id: string): boolean {
    return this.#write(`removing job ${id}`, (db) => {
      const removed = db.prepare('DELETE FROM job WHERE id = ?').run(id).changes > 0;
      this.#refresh(db, id);
      return removed;
    });
  }

  get(id: string): Job | undefined {
    return this.#jobs().get(id);
  }

  /** Jobs in creation order (of one agent, when given). */
  list(agentId?: string): Job[] {
    const jobs = [...this.#jobs().values()];
    return agentId === undefined ? jobs : jobs.filter((job) => job.agentId === agentId);
  }

  /** Records a run as started and moves the job to its next slot, atomically. */
  beginRun(job: Job, slotAt: number, reason: string, nextRunAt: number | undefined, now: number): JobRun {
    return this.#write(`starting a run of job ${job.id}`, (db) => {
      const id = Number(db.prepare("INSERT INTO run (job_id, slot_at, started_at, state, reason) VALUES (?, ?, ?, 'running', ?)").run(job.id, slotAt, now, reason).lastInsertRowid);
      // A one-shot job is disabled once its slot has started: it never fires again.
      db.prepare('UPDATE job SET next_run_at = ?, last_run_at = ?, last_state = ?, enabled = CASE WHEN ? THEN 0 ELSE enabled END, updated_at = ? WHERE id = ?').run(nextRunAt ?? null, now, 'running', job.schedule.kind === 'at' ? 1 : 0, now, job.id);
      this.#refresh(db, job.id);
      return toRun(db.prepare('SELECT * FROM run WHERE id = ?').get(id) as Row);
    });
  }

  /** Records a slot that was not run (over the catch-up cap), so it is never silently dropped. */
  recordSkipped(job: Job, slotAt: number, why: string, nextRunAt: number | undefined, now: number): void {
    this.#write(`recording a skipped run of job ${job.id}`, (db) => {
      db.prepare("INSERT INTO run (job_id, slot_at, started_at, finished_at, state, reason, error) VALUES (?, ?, ?, ?, 'skipped', 'missed', ?)").run(job.id, slotAt, now, now, why);
      db.prepare('UPDATE job SET next_run_at = ?, updated_at = ? WHERE id = ?').run(nextRunAt ?? null, now, job.id);
      this.#refresh(db, job.id);
    });
  }

  finishRun(run: JobRun, end: { state: string; taskId?: string; error?: string; reply?: string }, now: number): void {
    this.#write(`finishing a run of job ${run.jobId}`, (db) => {
      db.prepare('UPDATE run SET state = ?, finished_at = ?, task_id = ?, error = ?, reply = ? WHERE id = ?').run(end.state, now, end.taskId ?? null, end.error?.slice(0, 4_000) ?? null, end.reply?.slice(0, 16_000) ?? null, run.id);
      db.prepare('UPDATE job SET last_state = ?, last_error = ?, updated_at = ? WHERE id = ?').run(end.state, end.error?.slice(0, 4_000) ?? null, now, run.jobId);
      this.#refresh(db, run.jobId);
      db.prepare('DELETE FROM run WHERE job_id = ? AND id NOT IN (SELECT id FROM run WHERE job_id = ? ORDER BY id DESC LIMIT ?)').run(run.jobId, run.jobId, RUN_HISTORY_PER_JOB);
    });
  }

  runs(jobId: string, limit: number): JobRun[] {
    return this.#store.read(`reading runs of job ${jobId}`, (db) => (db.prepare('SELECT * FROM run WHERE job_id = ? ORDER BY id DESC LIMIT ?').all(jobId, limit) as Row[]).map(toRun));
  }

  close(): void {
    this.#store.close();
  }
}
