import { hostPidOfSleep } from '../helpers/host-pid.js';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedTurnRunner } from '../../kernel/index.js';
import { ROOT, eventually, startKernel, text, turnPlugins, type TestKernel } from './helpers.js';

const run = promisify(execFile);
const CLI = path.join(ROOT, 'dist/cli/main.js');

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A subagent whose only step is a long command that writes its pid first. */
function sleeper(marker: string): string {
  return JSON.stringify({ steps: [{ tool: 'exec', params: { command: `exec sleep ${marker}`, timeout: 600 } }] });
}

describe('cancelling tasks reaches the real work', () => {
  let t: TestKernel;
  const cli = (args: string[]) => run(process.execPath, [CLI, ...args], { cwd: t.workspace, env: { ...process.env, PINCER_STATE_DIR: t.stateDir, NO_COLOR: '1' } }).catch((error: { code: number; stdout: string; stderr: string }) => error);

  beforeAll(async () => {
    t = await startKernel((workspace) => ({ plugins: turnPlugins(workspace), tools: { profile: 'coding' }, agents: { list: [{ id: 'main', default: true, workspace }] } }));
    t.kernel.registerTurnRunner(createScriptedTurnRunner());
  });
  afterAll(async () => {
    await t.kernel.stop();
  });

  async function spawnSleeper(name: string): Promise<{ taskId: string; pid: number }> {
    // The command may run in its own PID namespace: its host pid is found by a unique marker.
    const marker = `300.${process.pid}${name.charCodeAt(name.length - 1)}`;
    const spawned = await t.kernel.assembleTools({ runId: `parent-${name}` }).execute('sessions_spawn', { task: sleeper(marker), label: name });
    const taskId = (spawned.details as { taskId: string }).taskId;
    const pid = await eventually(() => hostPidOfSleep(marker), `${name} to start`);
    expect(alive(pid)).toBe(true);
    await eventually(async () => ((await t.kernel.tasks.get(taskId))?.state === 'running' ? true : undefined), `${name} to be running`);
    return { taskId, pid };
  }

  it('kernel.tasks.cancel stops the turn and kills the command it started', async () => {
    const { taskId, pid } = await spawnSleeper('pid-a');
    const flagged = await t.kernel.tasks.cancel(taskId);
    expect(flagged).toMatchObject({ id: taskId, cancelRequested: true });
    await eventually(() => (alive(pid) ? undefined : true), 'the command to die');
    const task = await eventually(async () => { const x = await t.kernel.tasks.get(taskId); return x?.state === 'cancelled' ? x : undefined; }, 'the task to be cancelled');
    expect(task.kind).toBe('subagent');
  });

  it('the subagents tool lists the agent\'s tasks and cancels one', async () => {
    const { taskId, pid } = await spawnSleeper('pid-b');
    const tools = t.kernel.assembleTools({ runId: 'operator-run' });
    expect(text(await tools.execute('subagents', { action: 'list', state: 'running' }))).toContain(taskId);
    const cancelled = await tools.execute('subagents', { action: 'cancel', taskId });
    expect(cancelled.outcome).toBe('ok');
    await eventually(() => (alive(pid) ? undefined : true), 'the command to die');
    await eventually(async () => ((await t.kernel.tasks.get(taskId))?.state === 'cancelled' ? true : undefined), 'cancelled');
  });

  it('`pincer tasks cancel` in another process stops work this kernel runs', async () => {
    const { taskId, pid } = await spawnSleeper('pid-c');
    const listed = await cli(['tasks', 'list', '--json', '--state', 'running']);
    expect((JSON.parse(listed.stdout) as { tasks: { id: string }[] }).tasks.map((task) => task.id)).toContain(taskId);
    const cancelled = await cli(['tasks', 'cancel', taskId]);
    expect(cancelled.stdout).toContain(`Cancel requested for ${taskId}`);
    await eventually(() => (alive(pid) ? undefined : true), 'the command to die');
    await eventually(async () => ((await t.kernel.tasks.get(taskId))?.state === 'cancelled' ? true : undefined), 'cancelled');
    const shown = await cli(['tasks', 'show', taskId]);
    expect(shown.stdout).toMatch(/state:\s+cancelled/);
  });

  it('`pincer tasks show` of an unknown task fails with exit 1, naming it', async () => {
    const missing = await cli(['tasks', 'show', 'task_nope']);
    expect((missing as { code?: number }).code).toBe(1);
    expect(missing.stderr).toContain("no task 'task_nope'");
  });
});

describe('a plugin\'s own detached work in the ledger', () => {
  let t: TestKernel;
  beforeAll(async () => {
    t = await startKernel((workspace) => ({
      plugins: [...turnPlugins(workspace, ['tasks']), { id: 'background-worker', module: path.join(ROOT, 'dist/test/fixtures/plugins/background-worker.js') }],
      tools: { profile: 'coding', alsoAllow: ['start_work'] },
      agents: { list: [{ id: 'main', default: true, workspace }, { id: 'other', workspace }] },
    }));
  });
  afterAll(async () => {
    await t.kernel.stop();
  });

  it('is recorded under its plugin and its session\'s agent, and cancelling it stops the process', async () => {
    const started = await t.kernel.assembleTools({ runId: 'worker-run' }).execute('start_work', {});
    const { localId, pid } = started.details as { localId: string; pid: number };
    const id = `background-worker:${localId}`;
    const task = await eventually(async () => (await t.kernel.tasks.get(id))?.state === 'running' ? t.kernel.tasks.get(id) : undefined, 'the reported task');
    expect(task).toMatchObject({ kind: 'exec', ownerPlugin: 'background-worker', agentId: 'main', title: 'sleep 300' });
    // Another agent's subagents tool does not see it.
    expect(text(await t.kernel.assembleTools({ agentId: 'other' }).execute('subagents', { action: 'list' }))).not.toContain(id);
    await t.kernel.tasks.cancel(id);
    await eventually(() => (alive(pid) ? undefined : true), 'the worker process to die');
    await eventually(async () => ((await t.kernel.tasks.get(id))?.state === 'cancelled' ? true : undefined), 'cancelled');
  });
});
