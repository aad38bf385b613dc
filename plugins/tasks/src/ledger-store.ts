/**
 * The tasks ledger in the embedded store. A task's state only moves forward (queued →
 * running → succeeded | failed | cancelled); a task left unfinished by a process that died
 * is marked failed ("interrupted") when the ledger next opens, never re-run. A cancel request
 * is a flag any process may set; the process that runs the task sees it and stops the work.
 */
import { Store, type Migration } from '../../../sdk/store/index.js';
import type { TaskRecord, TaskState, TasksQueryParams } from '../../../protocol/index.js';

const MIGRATIONS: Migration[] = [
  {
    version: 1,
    description: 'tasks',
    up: `CREATE TABLE task (
           id TEXT PRIMARY KEY, kind TEXT NOT NULL, state TEXT NOT NULL, agent_id TEXT NOT NULL,
           session_key TEXT, parent_session_key TEXT, job_id TEXT, owner_plugin TEXT,
           title TEXT NOT NULL, progress TEXT, result TEXT, error TEXT,
           cancel_requested INTEGER NOT NULL DEFAULT 0, owner_pid INTEGER, owner_instance TEXT,
           created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
         CREATE INDEX task_agent ON task (agent_id, created_at DESC);
         CREATE INDEX task_unfinished ON task (state) WHERE state IN ('queued', 'running');`,
  },
];

const FINISHED: readonly TaskState[] = ['succeeded', 'failed', 'cancelled'];
const isFinished = (state: string): boolean => (FINISHED as readonly string[]).includes(state);

interface Row {
  id: string; kind: string; state: TaskState; agent_id: string; session_key: string | null; parent_session_key: string | null; job_id: string | null;
  owner_plugin: string | null; title: string; progress: string | null; result: string | null; error: string | null; cancel_requested: number;
  owner_pid: number | null; created_at: number; updated_at: number;
}

function toTask(row: Row): TaskRecord {
  const optional = { sessionKey: row.session_key, parentSessionKey: row.parent_session_key, jobId: row.job_id, ownerPlugin: row.owner_plugin, progress: row.progress, result: row.result, error: row.error };
  return {
    id: row.id, kind: row.kind, state: row.state, agentId: row.agent_id, title: row.title, createdAt: row.created_at, updatedAt: row.updated_at,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== null)),
    ...(row.cancel_requested ? { cancelRequested: true } : {}),
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface LedgerRetention {
  /** Finished tasks older than this are deleted (default 7 days). */
  maxAgeMs: number;
  /** At most this many finished tasks are kept, newest first (default 10,000). */
  maxFinished: number;
}

export class LedgerStore {
  readonly #store: Store;
  /** Which process records a task: the one whose kernel runs it and must see its cancel requests. */
  readonly #instance: string;

  constructor(file: string, instance: string, readonly ownerPid = process.pid) {
    this.#store = Store.open({ file, migrations: MIGRATIONS });
    this.#instance = instance;
  }

  get file(): string {
    return this.#store.file;
  }

  /** Marks failed every unfinished task whose process is gone. Returns how many. */
  recoverInterrupted(now = Date.now()): number {
    return this.#store.write('marking interrupted tasks', (db) => {
      const rows = db.prepare("SELECT id, owner_pid FROM task WHERE state IN ('queued', 'running')").all() as { id: string; owner_pid: number | null }[];
      const mark = db.prepare("UPDATE task SET state = 'failed', error = ?, updated_at = ? WHERE id = ?");
      let n = 0;
      for (const row of rows) {
        if (row.owner_pid !== null && row.owner_pid !== this.ownerPid && alive(row.owner_pid)) continue;
        mark.run(`interrupted: the process running it (pid ${row.owner_pid ?? '?'}) stopped before it finished; it was not re-run`, now, row.id);
        n++;
      }
      return n;
    });
  }

  /** Inserts or updates; a finished task keeps its end state. Answers the task as stored. */
  record(task: TaskRecord): TaskRecord {
    return this.#store.write(`recording task ${task.id}`, (db) => {
      const values = {
        id: task.id, kind: task.kind, state: task.state, agent_id: task.agentId, session_key: task.sessionKey ?? null, parent_session_key: task.parentSessionKey ?? null,
        job_id: task.jobId ?? null, owner_plugin: task.ownerPlugin ?? null, title: task.title, progress: task.progress ?? null, result: task.result ?? null, error: task.error ?? null,
        owner_pid: this.ownerPid, owner_instance: this.#instance, created_at: task.createdAt, updated_at: task.updatedAt,
      };
      // One statement: the update applies only while the stored task is unfinished (an end state is final).
      const row = db
        .prepare(
          `INSERT INTO task (id, kind, state, agent_id, session_key, parent_session_key, job_id, owner_plugin, title, progress, result, error, owner_pid, owner_instance, created_at, updated_at)
           VALUES (@id, @kind, @state, @agent_id, @session_key, @parent_session_key, @job_id, @owner_plugin, @title, @progress, @result, @error, @owner_pid, @owner_instance, @created_at, @updated_at)
           ON CONFLICT (id) DO UPDATE SET state = @state, progress = coalesce(@progress, progress), result = coalesce(@result, result), error = coalesce(@error, error),
             title = @title, owner_pid = @owner_pid, owner_instance = @owner_instance, updated_at = @updated_at
           WHERE task.state IN ('queued', 'running')
           RETURNING *`,
        )
        .get(values) as Row | undefined;
      return toTask(row ?? (db.prepare('SELECT * FROM task WHERE id = ?').get(task.id) as Row));
    });
  }

  query(params: TasksQueryParams): TaskRecord[] {
    const where: string[] = [];
    const args: unknown[] = [];
    for (const [column, value] of [['id', params.id], ['agent_id', params.agentId], ['parent_session_key', params.parentSessionKey]] as const) {
      if (value !== undefined) (where.push(`${column} = ?`), args.push(value));
    }
    if (params.states?.length) (where.push(`state IN (${params.states.map(() => '?').join(', ')})`), args.push(...params.states));
    const sql = `SELECT * FROM task ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY created_at DESC, rowid DESC LIMIT ?`;
    return this.#store.read('listing tasks', (db) => (db.prepare(sql).all(...args, params.limit ?? 100) as Row[]).map(toTask));
  }

  /** Flags an unfinished task to stop; answers it (undefined if unknown). */
  requestCancel(id: string, now = Date.now()): TaskRecord | undefined {
    return this.#store.write(`requesting cancel of task ${id}`, (db) => {
      db.prepare("UPDATE task SET cancel_requested = 1, updated_at = ? WHERE id = ? AND state IN ('queued', 'running')").run(now, id);
      const row = db.prepare('SELECT * FROM task WHERE id = ?').get(id) as Row | undefined;
      return row && toTask(row);
    });
  }

  /** Unfinished tasks this process recorded that someone asked to stop. */
  pendingCancels(): string[] {
    return this.#store.read('reading cancel requests', (db) =>
      (db.prepare("SELECT id FROM task WHERE cancel_requested = 1 AND state IN ('queued', 'running') AND owner_instance = ?").all(this.#instance) as { id: string }[]).map((r) => r.id),
    );
  }

  /** Deletes finished tasks past the retention; answers how many. */
  prune(retention: LedgerRetention, now = Date.now()): number {
    return this.#store.write('pruning finished tasks', (db) => {
      const finished = "state IN ('succeeded', 'failed', 'cancelled')";
      const old = db.prepare(`DELETE FROM task WHERE ${finished} AND updated_at < ?`).run(now - retention.maxAgeMs).changes;
      const over = db.prepare(`DELETE FROM task WHERE ${finished} AND id NOT IN (SELECT id FROM task WHERE ${finished} ORDER BY updated_at DESC LIMIT ?)`).run(retention.maxFinished).changes;
      return old + over;
    });
  }

  close(): void {
    this.#store.close();
  }
}
