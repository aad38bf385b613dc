import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JobStore, type Job } from '../../plugins/automations/src/job-store.js';
import { Scheduler, type RunEnd } from '../../plugins/automations/src/scheduler.js';
import { StoreError } from '../../sdk/store/index.js';
import { tempDir } from './helpers.js';

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const logs: string[] = [];
const log = { warn: (m: string) => void logs.push(`warn ${m}`), error: (m: string) => void logs.push(`error ${m}`), info: (m: string) => void logs.push(`info ${m}`) };
const stores: JobStore[] = [];
const schedulers: Scheduler[] = [];

function storeFile(): string {
  return path.join(tempDir('pincer-sched-'), 'automations.sqlite');
}
function openStore(file = storeFile()): JobStore {
  const store = new JobStore(file);
  stores.push(store);
  return store;
}

let seq = 0;
function addJob(store: JobStore, patch: Partial<Job> & Pick<Job, 'schedule' | 'nextRunAt'>): Job {
  const job: Job = { id: `job_${++seq}`, agentId: 'main', name: `job ${seq}`, message: 'hi', toolsAllow: ['read'], toolsAllowIsDefault: false, createdBySession: 'agent:main:main', enabled: true, createdAt: T0, updatedAt: T0, ...patch };
  store.insert(job);
  return job;
}

/** A runJob that records when each job started (ms after T0); `hold` keeps runs going until released. */
function recorder(hold = false) {
  const started: { id: string; at: number }[] = [];
  const runJob = (job: Job): Promise<RunEnd> => {
    started.push({ id: job.id, at: Date.now() - T0 });
    return hold ? new Promise(() => undefined) : Promise.resolve({ state: 'succeeded' });
  };
  return { started, runJob };
}

function startScheduler(store: JobStore, runJob: (job: Job) => Promise<RunEnd>): Scheduler {
  const scheduler = new Scheduler({ store, runJob, log });
  schedulers.push(scheduler);
  scheduler.start();
  return scheduler;
}

beforeEach(() => {
  vi.useFakeTimers({ now: T0, toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  logs.length = 0;
});
afterEach(() => {
  for (const scheduler of schedulers.splice(0)) scheduler.stop();
  vi.useRealTimers();
  for (const store of stores.splice(0)) store.close();
});

describe('the scheduler (fake timers)', () => {
  it('runs a job at its slot and keeps the interval, never twice within the refire gap', async () => {
    const store = openStore();
    addJob(store, { schedule: { kind: 'every', everyMs: 2_000 }, nextRunAt: T0 + 2_000 });
    const r = recorder();
    startScheduler(store, r.runJob);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(r.started.map((s) => s.at)).toEqual([2_000, 4_000, 6_000, 8_000, 10_000]);
  });

  it('wakes at least once a minute while the next job is far away, and runs it on time', async () => {
    const store = openStore();
    addJob(store, { schedule: { kind: 'cron', expr: '10 12 * * *' }, nextRunAt: T0 + 600_000 });
    const r = recorder();
    startScheduler(store, r.runJob);
    const wakes: number[] = [];
    for (let i = 0; i < 10; i++) {
      await vi.advanceTimersToNextTimerAsync();
      wakes.push(Date.now() - T0);
    }
    expect(wakes).toEqual([60_000, 120_000, 180_000, 240_000, 300_000, 360_000, 420_000, 480_000, 540_000, 600_000]);
    expect(r.started.map((s) => s.at)).toEqual([600_000]);
  });

  it('never hot-loops on a past-due job it cannot start: each retry waits the 2 s refire gap, and the tick failure is logged', async () => {
    const store = openStore();
    addJob(store, { schedule: { kind: 'every', everyMs: 60_000 }, nextRunAt: T0 + 1_000 });
    const r = recorder();
    startScheduler(store, r.runJob);
    let attempts = 0;
    // The job stays past due (its run cannot be recorded), so every re-arm sees a delay of 0.
    vi.spyOn(store, 'beginRun').mockImplementation(() => {
      attempts += 1;
      throw new StoreError('STORE_FULL', store.file, `database ${store.file} is full`);
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempts).toBeGreaterThan(20);
    expect(attempts).toBeLessThanOrEqual(31); // one per 2 s, not a spin
    expect(logs.some((line) => line.startsWith('error cron: timer tick failed') && line.includes('is full'))).toBe(true);
    vi.mocked(store.beginRun).mockRestore();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(r.started).toHaveLength(1); // the job was not dropped: it runs once the store takes writes again
  });

  it('keeps its timer when the store cannot even be read, retrying after the refire gap', async () => {
    const store = openStore();
    addJob(store, { schedule: { kind: 'every', everyMs: 60_000 }, nextRunAt: T0 + 1_000 });
    const r = recorder();
    startScheduler(store, r.runJob);
    let reads = 0;
    vi.spyOn(store, 'list').mockImplementation(() => {
      reads += 1;
      throw new StoreError('STORE_LOCKED', store.file, `database ${store.file} is locked by another process`);
    });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(reads).toBeGreaterThan(10);
    expect(reads).toBeLessThanOrEqual(62);
    vi.mocked(store.list).mockRestore();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(r.started).toHaveLength(1);
  });

  it('starts the tick from a non-async timer callback', async () => {
    const store = openStore();
    addJob(store, { schedule: { kind: 'every', everyMs: 60_000 }, nextRunAt: T0 + 5_000 });
    const spy = vi.spyOn(globalThis, 'setTimeout');
    startScheduler(store, recorder().runJob);
    const callback = spy.mock.calls.at(-1)![0] as () => unknown;
    expect(spy.mock.calls.at(-1)![1]).toBe(5_000);
    expect(callback.constructor.name).toBe('Function'); // not an AsyncFunction
    expect(callback()).toBeUndefined(); // returns nothing a timer could leave unhandled
    spy.mockRestore();
  });

  it('keeps starting other due jobs while a tick waits on a run that does not end (the watchdog)', async () => {
    const store = openStore();
    const stuck = addJob(store, { schedule: { kind: 'every', everyMs: 3_600_000 }, nextRunAt: T0 + 1_000 });
    const later = addJob(store, { schedule: { kind: 'every', everyMs: 3_600_000 }, nextRunAt: T0 + 30_000 });
    const r = recorder(true);
    startScheduler(store, r.runJob);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(r.started.map((s) => s.id)).toEqual([stuck.id]); // the tick is still waiting on the stuck run
    await vi.advanceTimersByTimeAsync(5_000);
    expect(r.started).toEqual([{ id: stuck.id, at: 1_000 }, { id: later.id, at: 61_000 }]);
  });

  it('catches up at most 5 missed jobs after a restart, 5 s apart, and records the rest as skipped with their next slot', async () => {
    const store = openStore();
    const missed = Array.from({ length: 8 }, (_, i) => addJob(store, { schedule: { kind: 'every', everyMs: 3_600_000 }, nextRunAt: T0 - 600_000 + i * 1_000 }));
    const r = recorder();
    startScheduler(store, r.runJob);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(r.started).toEqual(missed.slice(0, 5).map((job, i) => ({ id: job.id, at: i * 5_000 })));
    for (const job of missed.slice(5)) {
      expect(store.runs(job.id, 5)).toMatchObject([{ state: 'skipped', reason: 'missed' }]);
      expect(store.get(job.id)!.nextRunAt).toBe(T0 + 3_600_000); // waits for its next slot: not dropped
    }
    expect(logs.filter((line) => line.includes('was not caught up'))).toHaveLength(3);
  });

  it('never runs a slot twice across a crash: the interrupted run is recorded and its slot not re-run', async () => {
    const file = storeFile();
    const first = openStore(file);
    const job = addJob(first, { schedule: { kind: 'every', everyMs: 3_600_000 }, nextRunAt: T0 + 1_000 });
    const r1 = recorder(true);
    const crashed = startScheduler(first, r1.runJob);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(r1.started).toHaveLength(1);
    crashed.stop(); // the process dies mid-run: nothing finished the run
    const second = openStore(file);
    const r2 = recorder();
    startScheduler(second, r2.runJob);
    await vi.advanceTimersByTimeAsync(600_000);
    expect(r2.started).toEqual([]);
    expect(second.runs(job.id, 5)).toMatchObject([{ state: 'interrupted', reason: 'due' }]);
    expect(second.get(job.id)!.nextRunAt).toBe(T0 + 1_000 + 3_600_000);
  });

  it('disables a one-shot job once its slot started, and records a failing run without dropping the job', async () => {
    const store = openStore();
    const once = addJob(store, { schedule: { kind: 'at', at: T0 + 1_000 }, nextRunAt: T0 + 1_000 });
    const failing = addJob(store, { schedule: { kind: 'every', everyMs: 10_000 }, nextRunAt: T0 + 10_000 });
    startScheduler(store, async (job) => {
      if (job.id === failing.id) throw new Error('no turn runner is registered');
      return { state: 'succeeded' };
    });
    await vi.advanceTimersByTimeAsync(30_000);
    expect(store.get(once.id)).toMatchObject({ enabled: false, nextRunAt: undefined, lastState: 'succeeded' });
    const runs = store.runs(failing.id, 10);
    expect(runs.map((run) => run.state)).toEqual(['failed', 'failed', 'failed']);
    expect(runs[0]!.error).toContain(`job "${failing.name}" (${failing.id}): no turn runner`);
    expect(store.get(failing.id)!.enabled).toBe(true);
  });
});
