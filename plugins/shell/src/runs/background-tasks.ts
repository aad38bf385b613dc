import type { ExecRunInfo, ExecRunService, TaskState } from '../../../../protocol/index.js';
import type { ToolContext } from '../../../../sdk/plugin-api.js';
import { runStatus } from './describe.js';

type ReportTask = ToolContext['reportTask'];

/**
 * How often the running runs are checked for their end. A list per session, one request at a
 * time: waiting on each run instead would hold one of the plugin's few concurrent workspace
 * requests per run and starve the runs' own tools.
 */
const TASK_CHECK_MS = 2_000;
/** More than the ended runs backends keep listing (they forget finished runs after a while). */
const MAX_ENDED_REMEMBERED = 4_096;

interface Watched {
  session: string;
  runs: ExecRunService;
  report: ReportTask;
  command: string;
}

/** The ledger state of a run: killed on request is cancelled, exit 0 succeeded, any other end failed. */
function taskStateOf(run: ExecRunInfo): TaskState {
  if (run.status === 'running') return 'running';
  if (run.status === 'killed') return 'cancelled';
  return run.status === 'exited' && run.exitCode === 0 ? 'succeeded' : 'failed';
}

function taskOf(run: ExecRunInfo) {
  const failed = taskStateOf(run) === 'failed';
  const how = run.error ? `${run.error.code}: ${run.error.message}` : `${runStatus(run)}${run.exitCode !== null ? ` (exit code ${run.exitCode})` : ''}`;
  return { localId: run.runId, kind: 'exec', state: taskStateOf(run), title: run.command.slice(0, 500), ...(failed ? { error: how.slice(0, 4_096) } : {}) };
}

/**
 * Background runs as tasks in the kernel's ledger: each run this plugin starts is reported
 * when it starts and again when it ends (found by a periodic check of its session's runs),
 * and `cancel` (the kernel's `tasks/cancel`) kills the run itself, so cancelling the task
 * stops the command and its child processes.
 */
export class BackgroundTasks {
  readonly #watched = new Map<string, Watched>();
  /** Runs whose end was reported (the latest ones): a repeated look at them writes nothing again. */
  readonly #ended = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  /** The checks' own signal: a run's services came from a call that has long ended (and may have been cancelled). */
  #stop = new AbortController();

  /**
   * Reports an ended run's end, or starts following a running one to its end (once per run;
   * after a restart of this plugin, the next look at a run picks it up again).
   */
  observe(run: ExecRunInfo, runs: ExecRunService, session: string, report: ReportTask | undefined): void {
    if (report === undefined) return;
    if (run.status === 'running' ? this.#watched.has(run.runId) : this.#ended.has(run.runId)) return;
    this.#watched.delete(run.runId);
    report(taskOf(run));
    if (run.status !== 'running') {
      this.#ended.add(run.runId);
      if (this.#ended.size > MAX_ENDED_REMEMBERED) this.#ended.delete(this.#ended.values().next().value!);
      return;
    }
    this.#watched.set(run.runId, { session, runs, report, command: run.command });
    this.#schedule();
  }

  /** Kills a watched run; answers whether it was still running. */
  async cancel(runId: string): Promise<boolean> {
    const watched = this.#watched.get(runId);
    if (watched === undefined) return false;
    const { run, killed } = await watched.runs.kill(runId, this.#stop.signal);
    if (run !== null) this.observe(run, watched.runs, watched.session, watched.report);
    return killed;
  }

  /** Stops following runs (the runs themselves go on in the backend). */
  stopWatching(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#watched.clear();
    this.#stop.abort();
    this.#stop = new AbortController();
  }

  #schedule(): void {
    if (this.#timer !== undefined || this.#watched.size === 0) return;
    this.#timer = setTimeout(() => void this.#check().finally(() => { this.#timer = undefined; this.#schedule(); }), TASK_CHECK_MS);
    this.#timer.unref();
  }

  /** One list per session with watched runs; a failed list is tried again at the next check. */
  async #check(): Promise<void> {
    const bySession = new Map<string, Watched>();
    for (const watched of this.#watched.values()) bySession.set(watched.session, watched);
    for (const { session, runs } of bySession.values()) {
      const listed = await runs.list(this.#stop.signal).catch(() => undefined);
      if (listed === undefined) continue;
      for (const [runId, watched] of this.#watched) {
        if (watched.session !== session) continue;
        const run = listed.runs.find((r) => r.runId === runId);
        if (run !== undefined) this.observe(run, watched.runs, session, watched.report);
        else {
          this.#watched.delete(runId);
          watched.report({ localId: runId, kind: 'exec', state: 'failed', title: watched.command.slice(0, 500), error: 'the sandbox backend no longer knows this run (it restarted, or forgot the run)' });
        }
      }
    }
  }
}
