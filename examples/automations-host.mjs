// A Node host that runs agent turns without a model: the scripted runner replays tool calls
// through the real tool set. It spawns a subagent, waits for it, schedules a cron job, watches
// it run, and reads the tasks ledger. Run it: `node examples/automations-host.mjs`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKernel, createScriptedTurnRunner } from 'pincer';

const pkg = path.dirname(fileURLToPath(import.meta.resolve('pincer/package.json')));
const plugin = (id) => ({ id, module: path.join(pkg, 'dist/plugins', id, 'src/main.js') });
const workspace = mkdtempSync(path.join(tmpdir(), 'pincer-automations-'));
process.env.PINCER_STATE_DIR = path.join(workspace, '.state'); // jobs and tasks live here, not in ~/.pincer
writeFileSync(path.join(workspace, 'notes.txt'), 'buy milk\n');

const kernel = createKernel({
  plugins: ['fs', 'shell', 'sandbox-local', 'sessions', 'tasks', 'automations'].map(plugin),
  tools: { profile: 'coding', subagents: { maxSpawnDepth: 2 } },
  agents: { list: [{ id: 'main', default: true, workspace }] },
}, { cwd: workspace, logger: () => {} });
await kernel.start();

// Every turn the kernel starts (a subagent, a cron run) goes to this runner. By default a
// turn's message may carry its steps as JSON; a real host would call its model here instead.
const runner = createScriptedTurnRunner();
kernel.registerTurnRunner(runner);

// The main run spawns a subagent that reads a file, then waits for its result.
const main = kernel.assembleTools({ runId: 'main-run' });
const task = JSON.stringify({ steps: [{ tool: 'read', params: { path: 'notes.txt' } }] });
await main.execute('sessions_spawn', { task, label: 'read the notes' });
const waited = await main.execute('sessions_yield', { timeoutSeconds: 30 });
console.log('subagent:', waited.content[0].text.split('\n').slice(0, 2).join(' | '));

// A job every 2 s that may only read (the cap is at most what this run holds).
const added = await main.execute('automations', {
  action: 'add', name: 'check notes', schedule: { kind: 'every', everyMs: 2000 },
  message: JSON.stringify({ steps: [{ tool: 'read', params: { path: 'notes.txt' } }] }), toolsAllow: ['read'],
});
const job = added.details.job;
console.log('job:', job.name, job.toolsAllow);

// Wait for the ledger to record a finished cron run (the turn ends before its task is written).
const cronSucceeded = async () => (await kernel.tasks.list({ agentId: 'main', states: ['succeeded'] })).some((t) => t.kind === 'cron');
while (!(await cronSucceeded())) await new Promise((r) => setTimeout(r, 100));
const cron = runner.turns.find((turn) => turn.request.trigger === 'cron');
console.log('cron run:', cron.request.sessionKey === `agent:main:cron:${job.id}`, cron.tools);

await main.execute('automations', { action: 'remove', jobId: job.id });
const tasks = await kernel.tasks.list({ agentId: 'main' });
console.log('finished tasks:', [...new Set(tasks.filter((t) => t.state === 'succeeded').map((t) => t.kind))].sort().join(', '));
await kernel.stop();
