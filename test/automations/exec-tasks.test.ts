import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostPidOfSleep } from '../helpers/host-pid.js';
import { eventually, startKernel, turnPlugins, type TestKernel } from './helpers.js';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('background exec runs in the tasks ledger (real shell plugin and local backend)', () => {
  let t: TestKernel;
  beforeAll(async () => {
    t = await startKernel((workspace) => ({ plugins: turnPlugins(workspace, ['tasks']), tools: { profile: 'coding' }, agents: { list: [{ id: 'main', default: true, workspace }] } }));
  });
  afterAll(async () => {
    await t.kernel.stop();
  });

  async function startBackground(command: string): Promise<string> {
    const started = await t.kernel.assembleTools({ runId: `bg-${command.length}-${Date.now()}` }).execute('exec', { command, background: true });
    expect(started.outcome).toBe('ok');
    return `shell:${(started.details as { sessionId: string }).sessionId}`;
  }

  const stateOf = (id: string, state: string) => eventually(async () => { const task = await t.kernel.tasks.get(id); return task?.state === state ? task : undefined; }, `task ${id} to be ${state}`);

  it('records a run as running under the shell plugin, and cancelling the task kills the command', async () => {
    const marker = `300.${process.pid}7`;
    const id = await startBackground(`exec sleep ${marker}`);
    const pid = await eventually(() => hostPidOfSleep(marker), 'the command to start');
    expect(await stateOf(id, 'running')).toMatchObject({ kind: 'exec', ownerPlugin: 'shell', agentId: 'main', title: `exec sleep ${marker}` });
    await t.kernel.tasks.cancel(id);
    await eventually(() => (alive(pid) ? undefined : true), 'the command to die');
    await stateOf(id, 'cancelled');
  });

  it('records how a run ended on its own: exit 0 succeeded, any other exit failed with its code', async () => {
    const good = await startBackground('sleep 0.2; true');
    const bad = await startBackground('sleep 0.2; exit 3');
    await stateOf(good, 'succeeded');
    expect((await stateOf(bad, 'failed')).error).toContain('exit code 3');
  });

  it('records a run the process tool kills as cancelled', async () => {
    const id = await startBackground('exec sleep 300');
    await stateOf(id, 'running');
    const killed = await t.kernel.assembleTools({ runId: 'bg-killer' }).execute('process', { action: 'kill', sessionId: id.slice('shell:'.length) });
    expect(killed.outcome).toBe('ok');
    await stateOf(id, 'cancelled');
  });

  it('after a crash of the shell plugin, the next look at its runs records how they ended', async () => {
    const marker = `3.${process.pid}9`;
    const id = await startBackground(`exec sleep ${marker}`);
    await stateOf(id, 'running');
    const pid = await eventually(() => hostPidOfSleep(marker), 'the command to start');
    const shellPid = t.kernel.plugins().find((p) => p.id === 'shell')!.pid!;
    process.kill(shellPid, 'SIGKILL');
    await eventually(() => { const shell = t.kernel.plugins().find((p) => p.id === 'shell'); return shell?.state === 'ready' && shell.pid !== shellPid ? true : undefined; }, 'the shell plugin to restart');
    await eventually(() => (alive(pid) ? undefined : true), 'the command to end');
    expect((await t.kernel.tasks.get(id))?.state).toBe('running'); // nobody has looked since the crash
    await t.kernel.assembleTools({ runId: 'bg-lister' }).execute('process', { action: 'list' });
    await stateOf(id, 'succeeded');
  });
});
