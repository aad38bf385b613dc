import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../../../sdk/plugin-api.js';
import type { BackgroundRegistry, BackgroundRun } from '../background/registry.js';
import { formatExecOutput, statusLine } from './format-output.js';
import { fail, ok, type ShellToolContext } from './results.js';

export const ProcessParams = z.object({
  action: z
    .enum(['list', 'poll', 'log', 'kill'])
    .describe('list: every background run of this session; poll: status of one run (optionally waiting); log: its output; kill: stop it and its child processes.'),
  sessionId: z.string().optional().describe('The run id returned by exec with background: true (required for poll, log and kill).'),
  waitMs: z.number().int().min(0).max(60_000).default(0).describe('poll: wait up to this many milliseconds for the run to end (default 0).'),
  offset: z.number().int().min(1).default(1).describe('log: 1-based first line to show (default 1).'),
  limit: z.number().int().min(1).max(10_000).default(500).describe('log: most lines to show (default 500).'),
});
type ProcessParamsOut = z.output<typeof ProcessParams>;

function describe(run: BackgroundRun): Record<string, unknown> {
  const ended = run.endedAt ?? Date.now();
  return {
    sessionId: run.id,
    status: run.status,
    command: run.command,
    ...(run.cwd !== undefined ? { cwd: run.cwd } : {}),
    startedAt: run.startedAt,
    runtimeMs: ended - run.startedAt,
    ...(run.endedAt !== undefined ? { endedAt: run.endedAt } : {}),
    ...(run.result ? { exitCode: run.result.exitCode, signal: run.result.signal, timedOut: run.result.timedOut, truncated: run.result.truncated } : {}),
    ...(run.error ? { error: run.error } : {}),
  };
}

function summary(run: BackgroundRun): string {
  const seconds = (((run.endedAt ?? Date.now()) - run.startedAt) / 1000).toFixed(1);
  const end = run.result ? ` ${statusLine(run.result, 0).replace(/; [\d.]+ s\]$/, ']')}` : run.error ? ` [${run.error.code}: ${run.error.message}]` : '';
  return `${run.id}  ${run.status}  ${seconds} s  ${run.command}${end}`;
}

async function runOne(params: ProcessParamsOut, run: BackgroundRun, registry: BackgroundRegistry) {
  if (params.action === 'kill') {
    await registry.kill(run);
    return ok(`Killed ${run.id} and its child processes.`, describe(run));
  }
  if (params.action === 'poll') {
    if (run.status === 'running' && params.waitMs > 0) await Promise.race([run.done, new Promise((r) => setTimeout(r, params.waitMs))]);
    if (run.status === 'running') return ok(`${run.id} is still running (${summary(run).split('  ')[2]}). Poll again later, with waitMs to wait.`, describe(run));
    const tail = run.result ? `\n${formatExecOutput(run.result, 0).slice(-4000)}` : '';
    return ok(`${summary(run)}${tail}`, describe(run));
  }
  // log: the workspace service returns a command's output when it ends, so a running run has none yet.
  if (run.result === undefined) {
    const why = run.status === 'running' ? 'is still running; its output is available once it ends (poll with waitMs to wait)' : 'ended without output';
    return ok(`${run.id} ${why}.`, describe(run));
  }
  const lines = formatExecOutput(run.result, 0).split('\n');
  const shown = lines.slice(params.offset - 1, params.offset - 1 + params.limit);
  const more = params.offset - 1 + shown.length < lines.length ? `\n[Showing lines ${params.offset}-${params.offset - 1 + shown.length} of ${lines.length}; use offset to continue.]` : '';
  return ok(`${shown.join('\n')}${more}`, { ...describe(run), totalLines: lines.length });
}

export async function runProcess(params: ProcessParamsOut, ctx: ShellToolContext, registry: BackgroundRegistry) {
  const sessionKey = ctx.call?.sessionKey;
  if (params.action === 'list') {
    const runs = registry.list(sessionKey);
    return ok(runs.length === 0 ? 'No background runs in this session.' : runs.map(summary).join('\n'), { runs: runs.map(describe) });
  }
  if (params.sessionId === undefined) {
    return fail('INVALID_ARGUMENT', `action "${params.action}" needs a sessionId`, 'Pass the sessionId that exec returned, or use action "list" to see them.');
  }
  const run = registry.get(params.sessionId, sessionKey);
  if (run === undefined) {
    return fail('NO_SUCH_RUN', `No background run ${params.sessionId} in this session`, 'Use action "list" to see the runs of this session; finished runs are forgotten after a while.', { sessionId: params.sessionId });
  }
  return runOne(params, run, registry);
}

export function createProcessTool(registry: BackgroundRegistry): ToolDefinition<typeof ProcessParams> {
  return defineTool({
    name: 'process',
    description:
      'Manage background runs started by exec with background: true: list them, poll one (optionally waiting for it to end), read its output (log), or kill it with its child processes.',
    inputSchema: ProcessParams,
    executionMode: 'sequential',
    handler: (params, ctx) => runProcess(params, ctx, registry),
  });
}
