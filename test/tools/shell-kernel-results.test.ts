import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { createKernel, type Kernel, type PincerConfig } from '../../kernel/index.js';
import { DEFAULT_RUN_LIMITS } from '../../sdk/sandbox/runs/limits.js';
import { hostPidOfSleep } from '../helpers/host-pid.js';

/**
 * What the model sees from the shell family, through the real kernel and the real shell and
 * sandbox-local plugin processes (22.3, 22.5, 22.6, 22.7, 22.8; shell-tools.test.ts checks the
 * same handlers in-process). One kernel for the file: each test uses its own sessions.
 */

type Result = { content: { type: string; text?: string }[]; details?: unknown; isError?: boolean };
const text = (result: Result) => result.content.map((block) => block.text ?? '').join('');
const details = (result: Result) => (result.details ?? {}) as Record<string, any>;

let kernel: Kernel;
let workspace: string;
const tools = (session: string) => kernel.assembleTools({ sessionKey: `agent:main:${session}` });

beforeAll(async () => {
  workspace = mkdtempSync(path.join(tmpdir(), 'pincer-shell-results-'));
  const config: PincerConfig = {
    plugins: bundledPluginConfigs().map((p) => ({ ...p, lazy: false })),
    tools: { profile: 'coding' },
    agents: { list: [{ id: 'main', default: true, workspace }] },
  };
  kernel = createKernel(config, { logger: () => undefined });
  await kernel.start();
}, 60_000);
afterAll(async () => {
  await kernel?.stop();
  rmSync(workspace, { recursive: true, force: true });
});

describe('shell results through the kernel', () => {
  it('keeps every line of output on exit code 127, adding the classification as a hint', async () => {
    const t = tools('exit');
    const missing = await t.execute('exec', { command: 'echo "test 1 ok"; echo "test 2 FAILED" >&2; eslint_missing_pincer .' });
    expect(missing.isError).toBe(true);
    expect(details(missing).error).toMatchObject({ code: 'EXEC_NOT_FOUND' });
    expect(text(missing)).toMatch(/^test 1 ok\n\[stderr\]\ntest 2 FAILED\n.*eslint_missing_pincer.*not found\n\[exit code 127; [\d.]+ s\]\nHint: Exit code 127 usually means/);
    expect(text(await t.execute('exec', { command: 'echo out; exit 127' }))).toMatch(/^out\n\[exit code 127;/);
  });

  it('reports a background run timed out in the seconds it was given: timeout 1 on sleep 5 is "timed out after 1 s"', async () => {
    const t = tools('timeout');
    const sessionId = details(await t.execute('exec', { command: 'sleep 5', background: true, timeout: 1 })).sessionId as string;
    const polled = await t.execute('process', { action: 'poll', sessionId, waitMs: 10_000 });
    expect(details(polled).error).toMatchObject({ code: 'EXEC_TIMEOUT' });
    expect(text(polled)).toMatch(/timed out after 1 s/);
  });

  it('says that processes left running with & were killed when the call returned, and they are', async () => {
    // `sleep 30` with a marker only this test uses (30.<pid>7 is still 30 s), so the host pid can be
    // found even when the command ran in its own PID namespace, where `$!` names another process.
    const marker = `30.${process.pid}7`;
    const result = await tools('stray').execute('exec', { command: `sleep ${marker} & echo started` });
    expect(text(result)).toMatch(/^started\n/);
    expect(text(result)).toMatch(/processes it left running in the background \(& or nohup\) were killed when it exited; start servers and watchers with background: true/);
    expect(details(result)).toMatchObject({ strayProcessesKilled: true });
    await expect.poll(() => hostPidOfSleep(marker), { timeout: 5_000 }).toBeUndefined();
  });

  it('accepts back as cwd the path pwd prints', async () => {
    mkdirSync(path.join(workspace, 'pkg'));
    const t = tools('cwd');
    const seen = text(await t.execute('exec', { command: 'cd pkg && pwd' })).split('\n')[0]!;
    const back = await t.execute('exec', { command: 'pwd', cwd: seen });
    expect(back.isError).toBeFalsy();
    expect(text(back)).toMatch(new RegExp(`^${seen}\\n`));
    expect(details(back)).toMatchObject({ cwd: seen });
  });
});

describe('background run limits through the kernel (22.5)', () => {
  it("keeps session B's finished run while session C starts 70 quick runs, and C forgets only its own oldest", async () => {
    const b = tools('b');
    const c = tools('c');
    const bRun = details(await b.execute('exec', { command: 'echo b-done', background: true })).sessionId as string;
    expect(details(await b.execute('process', { action: 'poll', sessionId: bRun, waitMs: 5_000 }))).toMatchObject({ status: 'completed' });
    const cRuns: string[] = [];
    for (let i = 0; i < 70; i += 1) {
      const started = await c.execute('exec', { command: 'true', background: true });
      expect(started.isError).toBeFalsy();
      cRuns.push(details(started).sessionId as string);
    }
    // Wait until C's last run has ended, so all 70 count as finished and C is past its retention.
    expect(details(await c.execute('process', { action: 'poll', sessionId: cRuns.at(-1), waitMs: 5_000 }))).toMatchObject({ status: 'completed' });
    const listed = text(await c.execute('process', { action: 'list' })).match(/^run_\w+/gm) ?? [];
    expect(listed.length).toBe(DEFAULT_RUN_LIMITS.maxFinishedPerSession);
    expect(details(await c.execute('process', { action: 'poll', sessionId: cRuns[0] })).error).toMatchObject({ code: 'NO_SUCH_RUN' });
    const polled = await b.execute('process', { action: 'poll', sessionId: bRun });
    expect(details(polled)).toMatchObject({ status: 'completed', exitCode: 0 });
    expect(text(polled)).toMatch(/\nb-done\n\[exit code 0;/);
  }, 30_000);

  it('refuses a run past the backend-wide running cap with limit "backend", in a session still under its own cap', async () => {
    const { maxRunningTotal: total, maxRunningPerSession: perSession } = DEFAULT_RUN_LIMITS;
    const sessions = Array.from({ length: Math.ceil(total / perSession) }, (_, i) => `full-${i}`);
    const started = new Map<string, string[]>();
    try {
      // Fill the backend: each session up to its own cap, the sessions in parallel.
      await Promise.all(sessions.map(async (session, i) => {
        const runs: string[] = [];
        started.set(session, runs);
        for (let n = 0; n < Math.min(perSession, total - i * perSession); n += 1) {
          const result = await tools(session).execute('exec', { command: 'sleep 30', background: true });
          expect(result.isError, text(result)).toBeFalsy();
          runs.push(details(result).sessionId as string);
        }
      }));
      expect([...started.values()].flat()).toHaveLength(total);
      const refused = await tools('one-more').execute('exec', { command: 'sleep 30', background: true });
      expect(refused.isError).toBe(true);
      expect(details(refused)).toMatchObject({ error: { code: 'TOO_MANY_RUNS' }, limit: 'backend', max: total });
      expect(text(refused)).toMatch(new RegExp(`${total} background runs are already running on this sandbox backend across all sessions \\(at most ${total}\\)`));
    } finally {
      await Promise.all([...started].map(async ([session, runs]) => {
        for (const sessionId of runs) await tools(session).execute('process', { action: 'kill', sessionId });
      }));
    }
    // Killed, they no longer count: the refused session can start one now.
    const after = await tools('one-more').execute('exec', { command: 'true', background: true });
    expect(after.isError).toBeFalsy();
  }, 30_000);
});
