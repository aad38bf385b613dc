/**
 * The bundled automations plugin (alias `cron`): jobs and run history in its data dir, a
 * scheduler that runs each due job as an isolated cron turn through the kernel, and the
 * `automations` tool.
 */
import path from 'node:path';
import { definePlugin, pluginDataDir, type KernelClient } from '../../../sdk/plugin-api.js';
import { DEFAULT_MAX_JOBS_PER_AGENT } from './constants.js';
import { JobStore, type Job, type JobRun } from './job-store.js';
import { Scheduler, type RunEnd } from './scheduler.js';
import { createAutomationsTool } from './tool.js';

/** How long the scheduler waits on one cron turn before recording it as still running. */
const RUN_WAIT_MS = 3_600_000;

async function runCronTurn(kernel: KernelClient | undefined, job: Job, run: JobRun): Promise<RunEnd> {
  if (!kernel) throw new Error('the plugin is not connected to a kernel');
  const turn = await kernel.startTurn({ kind: 'cron', agentId: job.agentId, jobId: job.id, toolsAllow: job.toolsAllow, message: job.message, sessionKey: job.sessionKey, label: job.name, waitMs: RUN_WAIT_MS });
  if (turn.state === 'running' || turn.state === 'queued') return { state: 'failed', taskId: turn.taskId, error: `run #${run.id} was still running after ${RUN_WAIT_MS / 60_000} min; follow task ${turn.taskId}` };
  return { state: turn.state, taskId: turn.taskId, error: turn.error, reply: turn.reply };
}

export function createAutomationsPlugin(options: { file?: string } = {}) {
  let store: JobStore | undefined;
  let scheduler: Scheduler | undefined;
  let maxJobsPerAgent = DEFAULT_MAX_JOBS_PER_AGENT;
  const need = <T>(value: T | undefined): T => {
    if (!value) throw new Error('the automations plugin has not been activated');
    return value;
  };
  return definePlugin({
    id: 'automations',
    version: '0.1.0',
    family: 'automation',
    tools: [createAutomationsTool({ store: () => need(store), scheduler: () => need(scheduler), maxJobsPerAgent: () => maxJobsPerAgent })],
    activate({ settings, log, kernel }) {
      const max = settings.maxJobsPerAgent;
      if (max !== undefined && (typeof max !== 'number' || !Number.isInteger(max) || max < 1)) throw new Error(`settings.maxJobsPerAgent must be a positive integer, got ${JSON.stringify(max)}`);
      maxJobsPerAgent = max ?? DEFAULT_MAX_JOBS_PER_AGENT;
      store = new JobStore(options.file ?? path.join(pluginDataDir(), 'automations.sqlite'));
      scheduler = new Scheduler({ store, runJob: (job, run) => runCronTurn(kernel, job, run), log });
      scheduler.start();
    },
    async deactivate() {
      scheduler?.stop();
      await scheduler?.idle();
      store?.close();
      store = undefined;
    },
  });
}
