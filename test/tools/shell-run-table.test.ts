import { describe, expect, it } from 'vitest';
import { RunTable } from '../../sdk/sandbox/runs/run-table.js';
import type { TranscriptExecutor } from '../../sdk/sandbox/shell/exec-outcome.js';

/** A command double: prints its name, then ends when told to (or when its run is killed). */
function fakeCommands() {
  const finishers = new Map<string, () => void>();
  const execute: TranscriptExecutor = (command, _options, signal, transcript) =>
    new Promise((resolve, reject) => {
      transcript.push('stdout', Buffer.from(`${command}\n`));
      finishers.set(command, () => resolve({ exitCode: 0, signal: null, timedOut: false, durationMs: 1 }));
      signal?.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
    });
  return { execute, finish: (command: string) => finishers.get(command)?.() };
}

const started = (result: ReturnType<RunTable['start']>) => {
  if (!result.started) throw new Error(result.message);
  return result.run;
};

describe('the backend run table', () => {
  it("keeps finished runs per session: one session's many runs never evict another's", async () => {
    const table = new RunTable({ maxFinishedPerSession: 3 });
    const { execute, finish } = fakeCommands();
    const keep = started(table.start('B', execute, 'b-run'));
    finish('b-run');
    for (let i = 0; i < 70; i += 1) {
      started(table.start('C', execute, `c${i}`));
      finish(`c${i}`);
      await new Promise((r) => setImmediate(r)); // let the run record its end
    }
    await new Promise((r) => setTimeout(r, 10));
    const b = await table.read('B', keep.runId);
    expect(b.run).toMatchObject({ runId: keep.runId, status: 'exited', exitCode: 0 });
    expect(table.list('C').runs.map((r) => r.command)).toEqual(['c67', 'c68', 'c69']);
  });

  it('refuses a run past the per-session and the backend-wide limits, naming which', () => {
    const table = new RunTable({ maxRunningPerSession: 2, maxRunningTotal: 3 });
    const { execute } = fakeCommands();
    started(table.start('A', execute, 'a1'));
    started(table.start('A', execute, 'a2'));
    expect(table.start('A', execute, 'a3')).toMatchObject({ started: false, limit: 'session', max: 2 });
    started(table.start('B', execute, 'b1'));
    const refused = table.start('C', execute, 'c1');
    expect(refused).toMatchObject({ started: false, limit: 'backend', max: 3 });
    expect(refused.started === false && refused.message).toMatch(/3 background runs are already running on this sandbox backend/);
  });

  it('kills a running run only once it has ended, and says nothing was killed for a finished one', async () => {
    const table = new RunTable();
    const { execute, finish } = fakeCommands();
    const running = started(table.start('A', execute, 'long'));
    expect(await table.kill('A', running.runId)).toMatchObject({ killed: true, run: { status: 'killed' } });
    const done = started(table.start('A', execute, 'short'));
    finish('short');
    await new Promise((r) => setTimeout(r, 10));
    expect(await table.kill('A', done.runId)).toMatchObject({ killed: false, run: { status: 'exited' } });
    expect(await table.kill('B', done.runId)).toEqual({ run: null, killed: false }); // another session's run is unknown to B
  });

  it('waits for a run to end when asked to, and shows its output while it runs', async () => {
    const table = new RunTable();
    const { execute, finish } = fakeCommands();
    const run = started(table.start('A', execute, 'slow'));
    expect(await table.read('A', run.runId)).toMatchObject({ run: { status: 'running' }, output: [{ stream: 'stdout', text: 'slow\n' }] });
    setTimeout(() => finish('slow'), 50);
    expect(await table.read('A', run.runId, { waitMs: 10_000 })).toMatchObject({ run: { status: 'exited' } });
  });
});
