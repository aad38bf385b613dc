import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { createKernel, type Kernel, type PincerConfig } from '../../kernel/index.js';

/** The shell family end to end: the real kernel, the real shell and sandbox-local plugin processes. */

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

/** Alive and not a zombie. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const readPid = (file: string): number => Number(readFileSync(file, 'utf8'));

let kernel: Kernel | undefined;
afterEach(async () => {
  await kernel?.stop();
  kernel = undefined;
});

/** A kernel whose plugins answer within `callMs` of silence, as an operator may configure. */
async function start(callMs?: number, shellEnv?: Record<string, string>): Promise<{ kernel: Kernel; workspace: string }> {
  const workspace = mkdtempSync(path.join(tmpdir(), 'pincer-shell-kernel-'));
  const plugins = bundledPluginConfigs().map((p) => ({
    ...p,
    lazy: false,
    ...(callMs ? { timeouts: { callMs } } : {}),
    ...(p.id === 'shell' && shellEnv ? { env: shellEnv } : {}),
  }));
  const config: PincerConfig = { plugins, tools: { profile: 'coding' }, agents: { list: [{ id: 'main', default: true, workspace }] } };
  kernel = createKernel(config, { logger: () => undefined });
  await kernel.start();
  return { kernel, workspace };
}

const pluginPid = (k: Kernel, id: string): number => k.plugins().find((p) => p.id === id)!.pid!;

describe('shell calls are bound by their own timeout, not the kernel default deadline', () => {
  it('runs a foreground command, a poll wait and a background run well past an idle deadline of 2 s', async () => {
    const { kernel } = await start(2_000);
    const tools = kernel.assembleTools();
    const fg = await tools.execute('exec', { command: 'echo fg-start; sleep 6; echo fg-end', timeout: 60 });
    expect(fg.isError).toBeFalsy();
    expect(text(fg)).toMatch(/^fg-start\nfg-end\n\[exit code 0;/);
    const bg = await tools.execute('exec', { command: 'echo bg-start; sleep 6; echo bg-end', background: true });
    const sessionId = (bg.details as { sessionId: string }).sessionId;
    const polled = await tools.execute('process', { action: 'poll', sessionId, waitMs: 20_000 });
    expect(polled.details).toMatchObject({ status: 'completed', exitCode: 0 });
    expect(text(polled)).toMatch(/bg-start\nbg-end\n\[exit code 0;/);
  }, 60_000);
});

describe('background runs belong to the backend', () => {
  it('keeps runs private to the session that started them', async () => {
    const { kernel } = await start();
    const alice = kernel.assembleTools({ sessionKey: 'agent:main:alice' });
    const mallory = kernel.assembleTools({ sessionKey: 'agent:main:mallory' });
    const sessionId = ((await alice.execute('exec', { command: 'sleep 30', background: true })).details as { sessionId: string }).sessionId;
    expect((await mallory.execute('process', { action: 'kill', sessionId })).details).toMatchObject({ error: { code: 'NO_SUCH_RUN' } });
    expect(text(await mallory.execute('process', { action: 'list' }))).toBe('No background runs in this session.');
    expect((await alice.execute('process', { action: 'kill', sessionId })).details).toMatchObject({ status: 'killed' });
  }, 60_000);

  it('refuses a run past the per-session limit with a clear reason', async () => {
    const { kernel } = await start();
    const tools = kernel.assembleTools({ sessionKey: 'agent:main:busy' });
    for (let i = 0; i < 16; i += 1) expect((await tools.execute('exec', { command: 'sleep 60', background: true })).isError).toBeFalsy();
    const refused = await tools.execute('exec', { command: 'sleep 60', background: true });
    expect(refused.details).toMatchObject({ error: { code: 'TOO_MANY_RUNS' }, limit: 'session', max: 16 });
    expect(text(refused)).toMatch(/16 background runs are already running in this session \(at most 16\)/);
    const other = await kernel.assembleTools({ sessionKey: 'agent:main:other' }).execute('exec', { command: 'true', background: true });
    expect(other.isError).toBeFalsy();
  }, 60_000);

  it('survives a crash and restart of the shell plugin: the run keeps running and is still listed, polled and read', async () => {
    const { kernel, workspace } = await start();
    const tools = kernel.assembleTools();
    const pidFile = path.join(workspace, 'run.pid');
    const started = await tools.execute('exec', { command: `echo $$ > ${pidFile}; echo before; sleep 4; echo after`, background: true });
    const sessionId = (started.details as { sessionId: string }).sessionId;
    await expect.poll(() => readFileSync(pidFile, 'utf8').trim(), { timeout: 10_000 }).toMatch(/^\d+$/);
    const shellPid = pluginPid(kernel, 'shell');
    process.kill(shellPid, 'SIGKILL');
    await expect.poll(() => kernel.plugins().find((p) => p.id === 'shell')?.state === 'ready' && pluginPid(kernel, 'shell') !== shellPid, { timeout: 20_000 }).toBe(true);
    expect(alive(readPid(pidFile))).toBe(true);
    expect(text(await tools.execute('process', { action: 'list' }))).toMatch(new RegExp(`${sessionId}  running`));
    const polled = await tools.execute('process', { action: 'poll', sessionId, waitMs: 20_000 });
    expect(polled.details).toMatchObject({ status: 'completed' });
    expect(text(polled)).toMatch(/before\nafter\n/);
  }, 60_000);

  it('reports a run as lost when its backend crashed, and the crash killed the command', async () => {
    const { kernel, workspace } = await start();
    const tools = kernel.assembleTools();
    const pidFile = path.join(workspace, 'lost.pid');
    const started = await tools.execute('exec', { command: `sleep 300 & echo $! > ${pidFile}; wait`, background: true });
    const sessionId = (started.details as { sessionId: string }).sessionId;
    await expect.poll(() => readFileSync(pidFile, 'utf8').trim(), { timeout: 10_000 }).toMatch(/^\d+$/);
    const backendPid = pluginPid(kernel, 'sandbox-local');
    process.kill(backendPid, 'SIGKILL');
    await expect.poll(() => alive(readPid(pidFile)), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => kernel.plugins().find((p) => p.id === 'sandbox-local')?.state, { timeout: 20_000 }).toBe('ready');
    const polled = await tools.execute('process', { action: 'poll', sessionId });
    expect(polled.details).toMatchObject({ status: 'lost', error: { code: 'RUN_LOST' } });
    expect(text(polled)).toMatch(/is lost: the sandbox backend that ran it has restarted/);
    expect(text(await tools.execute('process', { action: 'list' }))).toMatch(new RegExp(`${sessionId}  lost`));
  }, 60_000);
});

describe('a lost run is reported as lost even by a restarted shell plugin', () => {
  it('remembers the runs it started in its data dir across its own crash', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pincer-shell-data-'));
    const { kernel } = await start(undefined, { PINCER_PLUGIN_DATA_DIR: dataDir });
    const tools = kernel.assembleTools();
    const sessionId = ((await tools.execute('exec', { command: 'sleep 300', background: true })).details as { sessionId: string }).sessionId;
    for (const id of ['sandbox-local', 'shell']) {
      const before = pluginPid(kernel, id);
      process.kill(before, 'SIGKILL');
      await expect.poll(() => kernel.plugins().find((p) => p.id === id)?.state === 'ready' && pluginPid(kernel, id) !== before, { timeout: 20_000 }).toBe(true);
    }
    const polled = await tools.execute('process', { action: 'poll', sessionId });
    expect(polled.details).toMatchObject({ status: 'lost', error: { code: 'RUN_LOST' } });
  }, 60_000);
});

describe('cancelling a call kills the command (local backend)', () => {
  it('kills the whole process group of an aborted exec within seconds', async () => {
    const { kernel, workspace } = await start();
    const pidFile = path.join(workspace, 'cancel.pid');
    const controller = new AbortController();
    const call = kernel.assembleTools().execute('exec', { command: `sleep 300 & echo $! > ${pidFile}; wait` }, { signal: controller.signal }).catch((e: unknown) => e);
    await expect.poll(() => readFileSync(pidFile, 'utf8').trim(), { timeout: 10_000 }).toMatch(/^\d+$/);
    const pid = readPid(pidFile);
    controller.abort();
    await call;
    await expect.poll(() => alive(pid), { timeout: 5_000 }).toBe(false);
  }, 60_000);
});
