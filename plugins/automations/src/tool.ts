/**
 * The `automations` tool (alias `cron`): schedule agent turns. Who is asking comes from the
 * kernel (`run/describe`): the creator's tools cap the job, a session a job names must be the
 * creator agent's, and inside a cron run the tool serves only that run's own job.
 */
import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import type { RunInfo } from '../../../protocol/index.js';
import { defineTool, TurnRefusedError } from '../../../sdk/plugin-api.js';
import { errorResult, okResult } from '../../../sdk/tool-results.js';
import { StoreError } from '../../../sdk/store/index.js';
import { DEFAULT_MAX_JOBS_PER_AGENT } from './constants.js';
import { capJobToolsAllow } from './creator-cap.js';
import type { Job, JobStore } from './job-store.js';
import { ScheduleError, ScheduleInput, validateSchedule } from './schedule.js';
import type { Scheduler } from './scheduler.js';
import { selfScopeOf, selfScopeRefusal } from './self-scope.js';

export const AutomationsParams = z.object({
  action: z.enum(['status', 'list', 'get', 'add', 'update', 'remove', 'run', 'runs']).describe('status: scheduler state; list/get: jobs; add/update/remove: change jobs; run: run a job now; runs: its run history.'),
  jobId: z.string().max(128).optional().describe('The job (get, update, remove, run, runs).'),
  name: z.string().min(1).max(200).optional().describe('add/update: a short name.'),
  schedule: ScheduleInput.optional().describe('add/update: when it runs.'),
  message: z.string().min(1).max(64_000).optional().describe('add/update: the message each run starts with.'),
  toolsAllow: z.array(z.string().max(256)).max(256).optional().describe('add/update: tools the runs may use (at most yours; omit for all of yours, [] for none).'),
  sessionKey: z.string().max(512).optional().describe('add/update: run in this session of yours instead of the job\'s own.'),
  enabled: z.boolean().optional(),
  limit: z.number().int().min(1).max(200).default(20),
});
type Params = z.output<typeof AutomationsParams>;

const view = (job: Job) => ({ ...job, nextRunAt: job.nextRunAt && new Date(job.nextRunAt).toISOString(), lastRunAt: job.lastRunAt && new Date(job.lastRunAt).toISOString() });
const line = (job: Job) => `${job.id}  ${job.enabled ? 'enabled' : 'disabled'}  ${job.name}  next ${job.nextRunAt ? new Date(job.nextRunAt).toISOString() : '-'}  tools [${job.toolsAllow.join(', ')}]`;

function sessionOfAgent(sessionKey: string, agentId: string): boolean {
  return sessionKey.trim().toLowerCase().startsWith(`agent:${agentId.trim().toLowerCase()}:`);
}

export function createAutomationsTool(deps: { store: () => JobStore; scheduler: () => Scheduler; now?: () => number; maxJobsPerAgent?: () => number }) {
  const now = deps.now ?? Date.now;
  const maxJobs = deps.maxJobsPerAgent ?? (() => DEFAULT_MAX_JOBS_PER_AGENT);

  function add(params: Params, run: RunInfo) {
    if (!params.name || !params.schedule || !params.message) return errorResult('INVALID_ARGUMENTS', 'add needs name, schedule and message', undefined);
    const held = deps.store().list(run.agentId).length;
    if (held >= maxJobs()) return errorResult('TOO_MANY_JOBS', `agent "${run.agentId}" already has ${held} automations jobs (at most ${maxJobs()})`, 'Remove a job you no longer need, or change an existing one.');
    const { schedule, firstRun } = validateSchedule(params.schedule, params.name, now());
    const cap = capJobToolsAllow(params.toolsAllow, run.tools, run.pluginTools);
    const at = now();
    const job: Job = {
      id: `job_${randomBytes(8).toString('hex')}`, agentId: run.agentId, name: params.name, schedule, message: params.message, toolsAllow: cap.toolsAllow,
      toolsAllowIsDefault: cap.toolsAllowIsDefault, sessionKey: params.sessionKey, createdBySession: run.sessionKey, enabled: params.enabled ?? true, nextRunAt: firstRun, createdAt: at, updatedAt: at,
    };
    deps.store().insert(job);
    deps.scheduler().armTimer();
    const note = cap.dropped.length ? ` Not granted (you do not hold them): ${cap.dropped.join(', ')}.` : '';
    return okResult(`Created ${line(job)}.${note}`, { job: view(job), dropped: cap.dropped });
  }

  function update(params: Params, job: Job, run: RunInfo) {
    const patch: Parameters<JobStore['update']>[1] = { name: params.name, message: params.message, enabled: params.enabled, sessionKey: params.sessionKey };
    if (params.schedule) {
      const { schedule, firstRun } = validateSchedule(params.schedule, job.name, now());
      Object.assign(patch, { schedule, nextRunAt: firstRun });
    }
    if (params.toolsAllow) Object.assign(patch, (({ toolsAllow, toolsAllowIsDefault }) => ({ toolsAllow, toolsAllowIsDefault }))(capJobToolsAllow(params.toolsAllow, run.tools, run.pluginTools)));
    const updated = deps.store().update(job.id, patch, now())!;
    deps.scheduler().armTimer();
    return okResult(`Updated ${line(updated)}.`, { job: view(updated) });
  }

  async function act(params: Params, run: RunInfo) {
    const scope = selfScopeOf(run);
    const refusal = selfScopeRefusal(scope, params.action, params.jobId);
    if (refusal) return errorResult('SELF_SCOPE', refusal, undefined);
    if (params.sessionKey !== undefined && !sessionOfAgent(params.sessionKey, run.agentId)) {
      return errorResult('SESSION_NOT_VISIBLE', `automations: sessionKey "${params.sessionKey}" must be a session of the calling agent "${run.agentId}" (agent:${run.agentId}:...)`, undefined);
    }
    const mine = deps.store().list(run.agentId).filter((job) => scope === undefined || job.id === scope);
    if (params.action === 'status' || params.action === 'list') {
      const next = deps.scheduler().nextWakeAt(mine);
      const text = params.action === 'status' ? `${mine.length} job(s); next run ${next ? new Date(next).toISOString() : 'none'}` : mine.map(line).join('\n') || 'No jobs.';
      return okResult(text, { jobs: mine.map(view), nextRunAt: next && new Date(next).toISOString() });
    }
    if (params.action === 'add') return add(params, run);
    const job = mine.find((j) => j.id === params.jobId);
    if (!job) return errorResult('JOB_NOT_FOUND', `no job "${params.jobId ?? ''}" of agent "${run.agentId}"`, 'Call automations with action "list" to see your jobs.');
    if (params.action === 'get') return okResult(line(job), { job: view(job) });
    if (params.action === 'runs') {
      const runs = deps.store().runs(job.id, params.limit);
      return okResult(runs.map((r) => `#${r.id} ${r.reason} ${r.state} ${new Date(r.startedAt).toISOString()}${r.error ? ` ${r.error}` : ''}`).join('\n') || 'No runs yet.', { runs });
    }
    if (params.action === 'remove') {
      deps.store().remove(job.id);
      deps.scheduler().armTimer();
      return okResult(`Removed job ${job.id} (${job.name}).`, { removed: job.id });
    }
    if (params.action === 'run') {
      const started = deps.scheduler().runNow(job);
      return started ? okResult(`Started job ${job.id} now; see action "runs" for its result.`, { jobId: job.id }) : errorResult('JOB_RUNNING', `job ${job.id} is already running`, 'Wait for it to finish.');
    }
    return update(params, job, run);
  }

  return defineTool({
    name: 'automations',
    description: 'Schedule reminders and recurring agent turns (once, every N ms, or by cron expression in UTC); list, change, remove and run them, and read their run history.',
    inputSchema: AutomationsParams,
    handler: async (params, ctx) => {
      try {
        return await act(params, await ctx.kernel.describeRun());
      } catch (error) {
        if (error instanceof ScheduleError) return errorResult(error.code, error.message, 'Fix the schedule and try again.');
        if (error instanceof TurnRefusedError) return errorResult(error.reason, error.message, undefined);
        if (error instanceof StoreError) return errorResult(error.code, error.message, undefined);
        throw error;
      }
    },
  });
}
