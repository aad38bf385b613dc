/**
 * The automations scheduler: one timer armed for the earliest due job (see timerDelay), a
 * non-async timer callback that starts the tick and logs its failure, a watchdog that keeps
 * checking for other due jobs while a tick runs, and a startup catch-up of slots missed while
 * the scheduler was down (at most MAX_MISSED_JOBS_PER_RESTART, MISSED_JOB_STAGGER_MS apart;
 * the others are recorded as skipped and wait for their next slot). A job never runs twice at
 * once, and every slot is either run or recorded.
 */
import { MAX_MISSED_JOBS_PER_RESTART, MIN_REFIRE_GAP_MS, MISSED_JOB_STAGGER_MS, TICK_WATCHDOG_MS } from './constants.js';
import type { Job, JobRun, JobStore } from './job-store.js';
import { nextRunAfter } from './schedule.js';
import { slotAfterRun, timerDelay } from './timer-delay.js';

export interface RunEnd {
  state: 'succeeded' | 'failed' | 'cancelled';
  taskId?: string;
  error?: string;
  reply?: string;
}

export interface SchedulerDeps {
  store: JobStore;
  /** Runs one job to its end (an isolated cron turn); a throw is a failed run. */
  runJob(job: Job, run: JobRun): Promise<RunEnd>;
  log: { warn(message: string): void; error(message: string): void; info(message: string): void };
  now?: () => number;
}

export class Scheduler {
  #timer: NodeJS.Timeout | undefined;
  #watchdog: NodeJS.Timeout | undefined;
  #ticking = false;
  #stopped = true;
  #catchingUp = false;
  readonly #running = new Map<string, Promise<void>>();
  readonly #now: () => number;

  constructor(private readonly deps: SchedulerDeps) {
    this.#now = deps.now ?? Date.now;
  }

  /** Starts: marks runs a dead process left, catches up missed slots, then arms the timer. */
  start(): void {
    this.#stopped = false;
    const now = this.#now();
    const interrupted = this.deps.store.markInterrupted(now);
    if (interrupted) this.deps.log.warn(`automations: ${interrupted} run(s) were in progress when the scheduler last stopped; marked interrupted, not re-run`);
    const missed = this.deps.store.list().filter((job) => job.enabled && job.nextRunAt !== undefined && job.nextRunAt <= now).sort((a, b) => a.nextRunAt! - b.nextRunAt!);
    for (const job of missed.slice(MAX_MISSED_JOBS_PER_RESTART)) {
      const next = this.#slotAfter(job, now);
      this.deps.store.recordSkipped(job, job.nextRunAt!, `missed while the scheduler was stopped; over the catch-up cap of ${MAX_MISSED_JOBS_PER_RESTART} per restart, so it waits for its next slot`, next, now);
      this.deps.log.warn(`automations: job "${job.name}" (${job.id}) missed its slot while stopped and was not caught up (cap ${MAX_MISSED_JOBS_PER_RESTART}); next run ${next === undefined ? 'never' : new Date(next).toISOString()}`);
    }
    const catchUp = missed.slice(0, MAX_MISSED_JOBS_PER_RESTART);
    if (catchUp.length === 0) return this.armTimer();
    this.#catchingUp = true;
    catchUp.forEach((job, i) => {
      const timer = setTimeout(() => {
        if (this.#stopped) return;
        const fresh = this.deps.store.get(job.id);
        if (fresh?.enabled && fresh.nextRunAt === job.nextRunAt) this.#start(fresh, job.nextRunAt!, 'catch-up');
        if (i === catchUp.length - 1) {
          this.#catchingUp = false;
          this.armTimer();
        }
      }, i * MISSED_JOB_STAGGER_MS);
      timer.unref?.();
    });
  }

  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    clearTimeout(this.#watchdog);
  }

  /** Runs in flight, for a clean shutdown. */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.#running.values()]);
  }

  /** The earliest slot of an enabled job that is not running. */
  nextWakeAt(jobs: readonly Job[]): number | undefined {
    let next: number | undefined;
    for (const job of jobs) if (job.enabled && job.nextRunAt !== undefined && !this.#running.has(job.id) && (next === undefined || job.nextRunAt < next)) next = job.nextRunAt;
    return next;
  }

  armTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#stopped || this.#catchingUp) return;
    let delay: number | undefined;
    try {
      const jobs = this.deps.store.list();
      delay = timerDelay(this.nextWakeAt(jobs), this.#now(), jobs.some((job) => job.enabled));
    } catch (error) {
      // An unreadable store must not stop the scheduler for good: retry after the refire gap.
      this.deps.log.error(`cron: could not read the jobs to arm the timer (retrying in ${MIN_REFIRE_GAP_MS} ms): ${error instanceof Error ? error.message : String(error)}`);
      delay = MIN_REFIRE_GAP_MS;
    }
    if (delay === undefined) return;
    this.#timer = setTimeout(() => this.#onTimer(), delay);
    this.#timer.unref?.();
  }

  /** Not async: the timer only starts the tick, whose failure is logged, never unhandled. */
  #onTimer(): void {
    this.#tick().catch((error: unknown) => this.deps.log.error(`cron: timer tick failed: ${error instanceof Error ? error.message : String(error)}`));
  }

  async #tick(): Promise<void> {
    if (this.#ticking || this.#stopped) return;
    this.#ticking = true;
    this.#armWatchdog();
    try {
      await this.#runDue();
    } finally {
      this.#ticking = false;
      clearTimeout(this.#watchdog);
      this.armTimer();
    }
  }

  /** While a tick waits on long runs, other jobs that fall due still start. */
  #armWatchdog(): void {
    clearTimeout(this.#watchdog);
    this.#watchdog = setTimeout(() => {
      if (!this.#ticking || this.#stopped) return;
      this.#runDue().catch((error: unknown) => this.deps.log.error(`cron: watchdog recheck failed: ${error instanceof Error ? error.message : String(error)}`));
      this.#armWatchdog();
    }, TICK_WATCHDOG_MS);
    this.#watchdog.unref?.();
  }

  async #runDue(): Promise<void> {
    const now = this.#now();
    const due = this.deps.store.list().filter((job) => job.enabled && job.nextRunAt !== undefined && job.nextRunAt <= now && !this.#running.has(job.id));
    await Promise.allSettled(due.map((job) => this.#start(job, job.nextRunAt!, 'due')));
  }

  #slotAfter(job: Job, now: number): number | undefined {
    return slotAfterRun((after) => nextRunAfter(job.schedule, after), job.schedule.kind === 'every' ? job.schedule.everyMs : undefined, now);
  }

  /** Runs a job now, outside its schedule; refused while it is already running. */
  runNow(job: Job): Promise<void> | undefined {
    if (this.#running.has(job.id)) return undefined;
    return this.#start(job, this.#now(), 'manual');
  }

  isRunning(jobId: string): boolean {
    return this.#running.has(jobId);
  }

  #start(job: Job, slotAt: number, reason: 'due' | 'catch-up' | 'manual'): Promise<void> {
    const existing = this.#running.get(job.id);
    if (existing) return existing;
    const now = this.#now();
    const next = reason === 'manual' ? job.nextRunAt : this.#slotAfter(job, now);
    const run = this.deps.store.beginRun(job, slotAt, reason, next, now);
    const done = (async () => {
      let end: RunEnd;
      try {
        end = await this.deps.runJob(job, run);
      } catch (error) {
        end = { state: 'failed', error: `job "${job.name}" (${job.id}): ${error instanceof Error ? error.message : String(error)}` };
      }
      try {
        this.deps.store.finishRun(run, end, this.#now());
      } catch (error) {
        this.deps.log.error(`automations: could not record the end of run ${run.id} of job ${job.id}: ${error instanceof Error ? error.message : String(error)}`);
      }
    })().finally(() => {
      this.#running.delete(job.id);
      this.armTimer();
    });
    this.#running.set(job.id, done);
    return done;
  }
}
