/**
 * The unfinished tasks each plugin has reported (`tasks/report`). A plugin is third-party code:
 * without a bound, one could fill the ledger's database with endless "running" tasks, which
 * retention (finished tasks only) never removes.
 */
import type { TaskState } from '../../protocol/index.js';

/** Far above what a real work-owning plugin has open (the shell's runs are capped per backend). */
export const MAX_OPEN_REPORTED_TASKS = 1024;

const ENDED: ReadonlySet<TaskState> = new Set(['succeeded', 'failed', 'cancelled']);

export class ReportedTasks {
  readonly #open = new Map<string, Set<string>>();

  constructor(private readonly max = MAX_OPEN_REPORTED_TASKS) {}

  /** Whether to record this report: an end always, a new unfinished task only under the cap. */
  admit(pluginId: string, localId: string, state: TaskState): boolean {
    const open = this.#open.get(pluginId) ?? new Set<string>();
    this.#open.set(pluginId, open);
    if (ENDED.has(state)) {
      open.delete(localId);
      return true;
    }
    if (open.has(localId)) return true;
    if (open.size >= this.max) return false;
    open.add(localId);
    return true;
  }
}
