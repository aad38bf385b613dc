import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LedgerStore } from '../../plugins/tasks/src/ledger-store.js';
import type { TaskRecord } from '../../protocol/index.js';
import { tempDir } from './helpers.js';

const DEAD_PID = 2 ** 22 + 12_345; // above the default pid_max: no such process
const open: LedgerStore[] = [];
const ledger = (file: string, pid = process.pid) => {
  const store = new LedgerStore(file, `kernel:${pid}`, pid);
  open.push(store);
  return store;
};
const task = (id: string, patch: Partial<TaskRecord> = {}): TaskRecord => ({ id, kind: 'subagent', state: 'running', agentId: 'main', title: id, createdAt: 1_000, updatedAt: 1_000, ...patch });
afterEach(() => {
  for (const store of open.splice(0)) store.close();
});

describe('the tasks ledger store', () => {
  it('moves states only forward: a finished task is never revived by a late report', () => {
    const store = ledger(path.join(tempDir('pincer-ledger-'), 'tasks.sqlite'));
    store.record(task('a', { state: 'queued' }));
    store.record(task('a', { state: 'running', progress: 'step 1' }));
    expect(store.record(task('a', { state: 'succeeded', result: 'done', updatedAt: 2_000 }))).toMatchObject({ state: 'succeeded', result: 'done', progress: 'step 1' });
    expect(store.record(task('a', { state: 'running', updatedAt: 3_000 }))).toMatchObject({ state: 'succeeded', updatedAt: 2_000 });
  });

  it('marks unfinished tasks of a process that died as failed (interrupted), never re-run, and leaves a live one alone', () => {
    const file = path.join(tempDir('pincer-ledger-'), 'tasks.sqlite');
    ledger(file, DEAD_PID).record(task('orphan'));
    ledger(file).record(task('mine'));
    const next = ledger(file, process.pid + 1);
    expect(next.recoverInterrupted()).toBe(1);
    expect(next.query({ id: 'orphan' })[0]).toMatchObject({ state: 'failed', error: expect.stringContaining('interrupted') });
    expect(next.query({ id: 'mine' })[0]!.state).toBe('running');
  });

  it('flags cancel requests for unfinished tasks only, and shows them to the process that runs them', () => {
    const file = path.join(tempDir('pincer-ledger-'), 'tasks.sqlite');
    const runner = ledger(file);
    runner.record(task('live'));
    runner.record(task('done', { state: 'succeeded' }));
    const other = ledger(file, process.pid + 1);
    expect(other.requestCancel('live')).toMatchObject({ cancelRequested: true });
    expect(other.requestCancel('done')?.cancelRequested).toBeUndefined();
    expect(other.requestCancel('unknown')).toBeUndefined();
    expect(runner.pendingCancels()).toEqual(['live']);
    expect(other.pendingCancels()).toEqual([]);
  });

  it('prunes finished tasks past their age or over the count, keeping unfinished ones', () => {
    const store = ledger(path.join(tempDir('pincer-ledger-'), 'tasks.sqlite'));
    for (let i = 0; i < 6; i++) store.record(task(`f${i}`, { state: 'succeeded', updatedAt: 10_000 + i }));
    store.record(task('old', { state: 'failed', updatedAt: 1 }));
    store.record(task('running', { updatedAt: 1 }));
    expect(store.prune({ maxAgeMs: 5_000, maxFinished: 3 }, 10_010)).toBe(4);
    expect(store.query({ limit: 100 }).map((t) => t.id).sort()).toEqual(['f3', 'f4', 'f5', 'running']);
  });
});
