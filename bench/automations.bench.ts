/**
 * Automations at scale, as ratios within one run:
 * - scheduling 10,000 jobs: the scheduler's next-wake computation (in memory, and with the
 *   store read every arm does), and every job's next slot, against a bare min over 10,000
 *   timestamps;
 * - the tasks ledger's write throughput (one atomic, durable record per task) against a bare
 *   better-sqlite3 insert loop with the same durability (WAL, synchronous=FULL, one
 *   transaction per row).
 * Run: `npx tsc -p tsconfig.json && node dist/bench/automations.bench.js`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { JobStore, type Job } from '../plugins/automations/src/job-store.js';
import { nextRunAfter, type Schedule } from '../plugins/automations/src/schedule.js';
import { Scheduler } from '../plugins/automations/src/scheduler.js';
import { LedgerStore } from '../plugins/tasks/src/ledger-store.js';
import { measure, printTable, ratio } from './lib/measure.js';

const JOBS = 10_000;
const EXPRESSIONS = ['*/5 * * * *', '0 9 * * MON-FRI', '30 2 1 * *', '15,45 */2 * * *', '0 0 29 2 *'];

function jobs(now: number): Job[] {
  return Array.from({ length: JOBS }, (_, i) => {
    const schedule: Schedule = i % 3 === 0 ? { kind: 'every', everyMs: 60_000 + i } : { kind: 'cron', expr: EXPRESSIONS[i % EXPRESSIONS.length]! };
    return { id: `job_${i}`, agentId: 'main', name: `job ${i}`, schedule, message: 'm', toolsAllow: ['read'], toolsAllowIsDefault: false, createdBySession: 'agent:main:main', enabled: true, nextRunAt: now + ((i * 7919) % 86_400_000), createdAt: now, updatedAt: now };
  });
}

export interface AutomationsBenchReport {
  unit: 'µs (median latency)';
  scheduling: { medians: Record<string, number>; ratiosToBareMin: Record<string, number> };
  ledger: { rows: number; medians: Record<string, number>; ratiosToBareInsert: Record<string, number> };
}

export async function runAutomationsBench(options: { timeMs?: number } = {}): Promise<AutomationsBenchReport> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pincer-auto-bench-'));
  try {
    const now = Date.UTC(2030, 0, 1);
    const all = jobs(now);
    const store = new JobStore(path.join(dir, 'automations.sqlite'));
    for (const job of all) store.insert(job);
    const scheduler = new Scheduler({ store, runJob: async () => ({ state: 'succeeded' }), log: { warn: () => undefined, error: () => undefined, info: () => undefined } });
    const times = all.map((job) => job.nextRunAt!);
    const sched = await measure(
      {
        'min over 10,000 timestamps (bare)': () => times.reduce((a, b) => (b < a ? b : a)),
        'nextWakeAt over 10,000 jobs (in memory)': () => scheduler.nextWakeAt(all),
        'next slot of each of 10,000 jobs (cron + interval)': () => all.forEach((job) => nextRunAfter(job.schedule, now)),
        'arm: read 10,000 jobs from the store + next wake': () => scheduler.nextWakeAt(store.list()),
      },
      { timeMs: options.timeMs },
    );
    store.close();

    let n = 0;
    const ledger = new LedgerStore(path.join(dir, 'tasks.sqlite'), 'bench', process.pid);
    const bare = new Database(path.join(dir, 'bare.sqlite'));
    bare.pragma('journal_mode = WAL');
    bare.pragma('synchronous = FULL');
    bare.exec('CREATE TABLE task (id TEXT PRIMARY KEY, kind TEXT, state TEXT, agent_id TEXT, title TEXT, created_at INTEGER, updated_at INTEGER)');
    const insert = bare.prepare('INSERT INTO task VALUES (?, ?, ?, ?, ?, ?, ?)');
    const write = await measure(
      {
        'bare better-sqlite3 insert (WAL, synchronous=FULL)': () => insert.run(`t${++n}`, 'subagent', 'queued', 'main', 'a task', now, now),
        'LedgerStore.record (new task)': () => ledger.record({ id: `t${++n}`, kind: 'subagent', state: 'queued', agentId: 'main', title: 'a task', createdAt: now, updatedAt: now }),
      },
      { timeMs: options.timeMs },
    );
    bare.close();
    ledger.close();

    const round = (us: number) => Math.round(us * 10) / 10;
    const schedBase = sched['min over 10,000 timestamps (bare)']!;
    const writeBase = write['bare better-sqlite3 insert (WAL, synchronous=FULL)']!;
    return {
      unit: 'µs (median latency)',
      scheduling: {
        medians: Object.fromEntries(Object.entries(sched).map(([k, m]) => [k, round(m.medianUs)])),
        ratiosToBareMin: Object.fromEntries(Object.entries(sched).map(([k, m]) => [k, ratio(m, schedBase)])),
      },
      ledger: {
        rows: n,
        medians: Object.fromEntries(Object.entries(write).map(([k, m]) => [k, round(m.medianUs)])),
        ratiosToBareInsert: Object.fromEntries(Object.entries(write).map(([k, m]) => [k, ratio(m, writeBase)])),
      },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await runAutomationsBench();
  printTable('scheduling 10,000 jobs', Object.keys(report.scheduling.medians).map((task) => ({ task, 'median (µs)': report.scheduling.medians[task]!, 'x bare min': report.scheduling.ratiosToBareMin[task]! })));
  printTable('tasks ledger writes', Object.keys(report.ledger.medians).map((task) => ({ task, 'median (µs)': report.ledger.medians[task]!, 'x bare insert': report.ledger.ratiosToBareInsert[task]! })));
}
