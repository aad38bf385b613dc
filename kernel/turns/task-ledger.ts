/**
 * The kernel's side of the tasks ledger. Tasks are written to the plugin that declared the
 * `taskLedger` capability (the bundled `tasks` plugin keeps them in its database, so they
 * survive a restart); without one they live in memory for this kernel's lifetime. Writes of
 * one task keep their order; a failed write is logged, never thrown at the work it describes.
 */
import { TasksQuery, TasksRecord, TasksRequestCancel, type TaskRecord, type TasksQueryParams } from '../../protocol/index.js';
import type { PluginHost } from '../host/index.js';

export type TaskUpdate = Omit<TaskRecord, 'createdAt' | 'updatedAt'> & { createdAt?: number };

const FINISHED = new Set(['succeeded', 'failed', 'cancelled']);

export class TaskLedger {
  readonly #memory = new Map<string, TaskRecord>();
  readonly #chains = new Map<string, Promise<unknown>>();

  constructor(
    private readonly host: PluginHost,
    private readonly warn: (message: string) => void,
  ) {}

  /** The ready plugin keeping the ledger, if any. */
  ledgerPlugin(): string | undefined {
    return this.host.status().find((p) => p.state === 'ready' && this.host.capabilitiesOf(p.id).taskLedger === true)?.id;
  }

  /** Writes a task (after the previous write of the same task). */
  record(update: TaskUpdate): Promise<void> {
    const now = Date.now();
    const known = this.#memory.get(update.id);
    // A finished task stays finished: a late "running" report must not revive it.
    if (known && FINISHED.has(known.state) && !FINISHED.has(update.state)) return Promise.resolve();
    const task: TaskRecord = { ...known, ...update, createdAt: known?.createdAt ?? update.createdAt ?? now, updatedAt: now };
    this.#memory.set(task.id, task);
    const previous = this.#chains.get(task.id) ?? Promise.resolve();
    const next = previous.then(async () => {
      const plugin = this.ledgerPlugin();
      if (plugin) await this.host.requestPlugin(plugin, TasksRecord, { task });
    }).catch((error: unknown) => this.warn(`tasks ledger: could not record task ${task.id} (${task.state}): ${error instanceof Error ? error.message : String(error)}`));
    this.#chains.set(task.id, next);
    void next.finally(() => {
      if (this.#chains.get(task.id) === next) this.#chains.delete(task.id);
      // Only unfinished tasks need a memory copy (for the revival guard); the ledger keeps the rest.
      if (FINISHED.has(task.state) && this.ledgerPlugin()) this.#memory.delete(task.id);
    });
    return next;
  }

  async query(params: TasksQueryParams): Promise<TaskRecord[]> {
    const plugin = this.ledgerPlugin();
    if (plugin) return (await this.host.requestPlugin(plugin, TasksQuery, params)).tasks;
    const states = params.states && new Set(params.states);
    return [...this.#memory.values()]
      .filter((t) => (!params.id || t.id === params.id) && (!params.agentId || t.agentId === params.agentId) && (!params.parentSessionKey || t.parentSessionKey === params.parentSessionKey) && (!states || states.has(t.state)))
      .sort((a, b) => b.createdAt - a.createdAt)
      .slice(0, params.limit ?? 100);
  }

  /** Records a cancel request; answers the task as it stands (undefined if unknown). */
  async requestCancel(id: string): Promise<TaskRecord | undefined> {
    const plugin = this.ledgerPlugin();
    if (plugin) return (await this.host.requestPlugin(plugin, TasksRequestCancel, { id })).task;
    const task = this.#memory.get(id);
    if (task && !FINISHED.has(task.state)) task.cancelRequested = true;
    return task;
  }

  /** Resolves when every write so far has reached the ledger. */
  async flush(): Promise<void> {
    await Promise.all([...this.#chains.values()]);
  }
}
