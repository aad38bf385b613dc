import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedTurnRunner, stepsFromMessage, type PincerConfig, type ScriptedTurnRunner, type TurnRequest } from '../../kernel/index.js';
import { ROOT, eventually, pluginModule, startKernel, tempDir, text, turnPlugins, type TestKernel } from './helpers.js';

const PLUGINS = ['sessions', 'tasks', 'automations'];
let otherJobId = '';

/** Cron turns follow their job's message; the self-scope job's steps name its own id. */
function script(request: TurnRequest) {
  if (request.message !== 'self-scope') return stepsFromMessage(request.message);
  return [
    { tool: 'automations', params: { action: 'list' } },
    { tool: 'automations', params: { action: 'remove', jobId: otherJobId } },
    { tool: 'automations', params: { action: 'add', name: 'spawned by a cron run', schedule: { kind: 'every', everyMs: 60_000 }, message: 'x' } },
    { tool: 'automations', params: { action: 'remove', jobId: request.jobId } },
  ];
}

function config(extra: Partial<PincerConfig> = {}) {
  return (workspace: string): PincerConfig => ({
    plugins: turnPlugins(workspace, PLUGINS),
    tools: { profile: 'coding', ...extra.tools },
    groups: { team: { tools: { deny: ['exec'] } } },
    agents: { list: [{ id: 'main', default: true, workspace }, { id: 'other', workspace }] },
  });
}

async function automations(t: TestKernel, params: Record<string, unknown>, run: Record<string, unknown> = { groupId: 'team', runId: 'creator' }) {
  return t.kernel.assembleTools(run).execute('automations', params);
}

describe('automations end to end: a real plugin, a real short schedule, restarts', () => {
  let t: TestKernel;
  let runner: ScriptedTurnRunner;
  let jobId = '';
  const stateDir = tempDir('pincer-auto-state-');
  const workspace = tempDir('pincer-auto-ws-');
  const cronTurns = (id: string) => runner.turns.filter((turn) => turn.request.trigger === 'cron' && turn.request.jobId === id);

  beforeAll(async () => {
    writeFileSync(path.join(workspace, 'notes.txt'), 'cron notes\n');
    t = await startKernel(config(), { stateDir, workspace });
    runner = createScriptedTurnRunner(script);
    t.kernel.registerTurnRunner(runner);
  });
  afterAll(async () => {
    await t.kernel.stop();
  });

  it('caps a new job at its creator\'s tools and runs it every 2 s as an isolated cron run', async () => {
    const steps = { steps: [{ tool: 'read', params: { path: 'notes.txt' } }, { tool: 'exec', params: { command: 'echo escaped' } }] };
    const created = await automations(t, { action: 'add', name: 'tick', schedule: { kind: 'every', everyMs: 2_000 }, message: JSON.stringify(steps), toolsAllow: ['read', 'bash', 'write'] });
    expect(created.outcome).toBe('ok');
    const job = (created.details as { job: { id: string; toolsAllow: string[] }; dropped: string[] });
    jobId = job.job.id;
    // The creator's group denies exec: the job cannot get it, whatever it asks for (bash is exec).
    // An allow of write admits apply_patch, as everywhere in policy.
    expect(job.job.toolsAllow).toEqual(['read', 'write', 'apply_patch']);
    expect(job.dropped).toEqual(['exec']);

    await eventually(() => (cronTurns(jobId).filter((turn) => turn.results.length === 2).length >= 2 ? true : undefined), 'two finished cron runs', 20_000);
    for (const turn of cronTurns(jobId).filter((turn) => turn.results.length === 2).slice(0, 2)) {
      expect(turn.request).toMatchObject({ trigger: 'cron', jobId, sessionKey: `agent:main:cron:${jobId}`, toolsAllow: ['read', 'write', 'apply_patch'], subagentDepth: 0 });
      expect(turn.tools.sort()).toEqual(['apply_patch', 'read', 'write']);
      expect(text(turn.results[0]!.result)).toContain('cron notes');
      expect(turn.results[1]!.result).toMatchObject({ outcome: 'denied', code: 'TOOL_REMOVED' });
    }
    const runs = await eventually(async () => {
      const r = (await automations(t, { action: 'runs', jobId })).details as { runs: { state: string; slotAt: number }[] };
      return r.runs.filter((run) => run.state === 'succeeded').length >= 2 ? r.runs : undefined;
    }, 'two recorded runs');
    expect(new Set(runs.map((run) => run.slotAt)).size).toBe(runs.length); // no slot ran twice
    const tasks = await t.kernel.tasks.list({ agentId: 'main' });
    expect(tasks.filter((task) => task.kind === 'cron' && task.jobId === jobId && task.state === 'succeeded').length).toBeGreaterThanOrEqual(2);
  });

  it('refuses a job that names another agent\'s session', async () => {
    const refused = await automations(t, { action: 'add', name: 'spy', schedule: { kind: 'every', everyMs: 60_000 }, message: 'x', sessionKey: 'agent:other:main' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/SESSION_NOT_VISIBLE.*must be a session of the calling agent "main"/);
  });

  it('inside a cron run, the tool sees and removes only its own job', async () => {
    otherJobId = ((await automations(t, { action: 'add', name: 'bystander', schedule: { kind: 'every', everyMs: 3_600_000 }, message: 'x' })).details as { job: { id: string } }).job.id;
    const created = await automations(t, { action: 'add', name: 'self-scoped', schedule: { kind: 'at', at: Date.now() + 2_500 }, message: 'self-scope', toolsAllow: ['automations'] });
    const ownId = (created.details as { job: { id: string } }).job.id;
    const turn = await eventually(() => (cronTurns(ownId)[0]?.results.length === 4 ? cronTurns(ownId)[0] : undefined), 'the self-scoped run');
    const [list, removeOther, add, removeOwn] = turn.results.map((r) => r.result);
    expect((list!.details as { jobs: { id: string }[] }).jobs.map((job) => job.id)).toEqual([ownId]);
    expect(text(removeOther!)).toContain('Automations tool is restricted to the current automation.');
    expect(text(add!)).toContain('Automations tool is restricted to the current automation.');
    expect(removeOwn!.outcome).toBe('ok');
    const ids = ((await automations(t, { action: 'list' })).details as { jobs: { id: string }[] }).jobs.map((job) => job.id);
    expect(ids).toContain(otherJobId);
    expect(ids).not.toContain(ownId);
  });

  it('keeps jobs, run history and tasks across a kernel restart, and carries on the schedule', async () => {
    const before = ((await automations(t, { action: 'runs', jobId, limit: 200 })).details as { runs: { id: number }[] }).runs.length;
    const tasksBefore = (await t.kernel.tasks.list({ agentId: 'main', limit: 1000 })).map((task) => task.id);
    await t.kernel.stop();
    t = await startKernel(config(), { stateDir, workspace });
    runner = createScriptedTurnRunner(script);
    t.kernel.registerTurnRunner(runner);
    const listed = ((await automations(t, { action: 'list' })).details as { jobs: { id: string; name: string }[] }).jobs;
    expect(listed.map((job) => job.name)).toEqual(expect.arrayContaining(['tick', 'bystander']));
    const tasksAfter = (await t.kernel.tasks.list({ agentId: 'main', limit: 1000 })).map((task) => task.id);
    expect(tasksAfter).toEqual(expect.arrayContaining(tasksBefore));
    await eventually(() => (cronTurns(jobId).length >= 1 ? true : undefined), 'a run after the restart');
    const runs = await eventually(async () => {
      const r = ((await automations(t, { action: 'runs', jobId, limit: 200 })).details as { runs: { id: number; slotAt: number; state: string }[] }).runs;
      return r.length > before && r.every((run) => run.state !== 'running') ? r : undefined;
    }, 'the history to grow');
    expect(new Set(runs.map((run) => run.slotAt)).size).toBe(runs.length);
  });

  it('fails (and keeps) a job whose granted tools were all removed from its agent since, naming the job', async () => {
    const created = await automations(t, { action: 'add', name: 'writer', schedule: { kind: 'every', everyMs: 2_000 }, message: 'x', toolsAllow: ['exec'] }, { runId: 'main-creator' });
    const writerId = (created.details as { job: { id: string } }).job.id;
    await t.kernel.stop();
    t = await startKernel(config({ tools: { deny: ['exec'] } }), { stateDir, workspace });
    runner = createScriptedTurnRunner(script);
    t.kernel.registerTurnRunner(runner);
    const failed = await eventually(async () => {
      const r = ((await automations(t, { action: 'runs', jobId: writerId })).details as { runs: { state: string; error?: string }[] }).runs;
      return r.find((run) => run.state === 'failed');
    }, 'a failed run of the writer job');
    expect(failed.error).toContain(`cron job "${writerId}"`);
    expect(failed.error).toMatch(/none of them is available/);
    expect(cronTurns(writerId)).toEqual([]); // no turn ran uncapped or empty-handed
    const job = ((await automations(t, { action: 'get', jobId: writerId })).details as { job: { enabled: boolean } }).job;
    expect(job.enabled).toBe(true);
  });
});

describe('the creator cap names plugins as policy does; an agent\'s jobs are capped', () => {
  let t: TestKernel;
  beforeAll(async () => {
    t = await startKernel((workspace) => ({
      plugins: [
        ...turnPlugins(workspace, []),
        { id: 'automations', module: pluginModule('automations'), settings: { maxJobsPerAgent: 3 } },
        { id: 'background-worker', module: path.join(ROOT, 'dist/test/fixtures/plugins/background-worker.js') },
      ],
      tools: { profile: 'coding', alsoAllow: ['start_work'] },
      agents: { list: [{ id: 'main', default: true, workspace }, { id: 'other', workspace }] },
    }));
  });
  afterAll(async () => {
    await t.kernel.stop();
  });
  const add = (toolsAllow: string[], agentId = 'main') =>
    t.kernel.assembleTools({ agentId, runId: `cap-${agentId}-${toolsAllow.join()}-${Math.random()}` }).execute('automations', { action: 'add', name: 'capped', schedule: { kind: 'every', everyMs: 3_600_000 }, message: 'x', toolsAllow });

  it('grants a job asking for a plugin id (or group:plugins) exactly the creator\'s tools from that plugin', async () => {
    for (const toolsAllow of [['background-worker', 'read'], ['group:plugins']]) {
      const created = await add(toolsAllow);
      expect(created.outcome, toolsAllow.join()).toBe('ok');
      const { job, dropped } = created.details as { job: { toolsAllow: string[] }; dropped: string[] };
      expect(job.toolsAllow.sort(), toolsAllow.join()).toEqual(toolsAllow.includes('read') ? ['read', 'start_work'] : ['start_work']);
      expect(dropped).toEqual([]);
    }
  });

  it('refuses a job past maxJobsPerAgent, naming the agent and the limit, and counts each agent apart', async () => {
    expect((await add(['read'])).outcome).toBe('ok'); // the third of main's jobs
    const refused = await add(['read']);
    expect(refused).toMatchObject({ outcome: 'tool_error', isError: true });
    expect(text(refused)).toContain('TOO_MANY_JOBS');
    expect(text(refused)).toContain('agent "main" already has 3 automations jobs (at most 3)');
    expect((await add(['read'], 'other')).outcome).toBe('ok');
  });
});
