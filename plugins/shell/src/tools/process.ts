import * as z from 'zod';
import type { ExecRunInfo, ExecRunService, ToolInvokeResult } from '../../../../protocol/index.js';
import { defineTool, type ToolDefinition } from '../../../../sdk/plugin-api.js';
import { runDetails, runEnd, runSummary, runtimeMs } from '../runs/describe.js';
import type { BackgroundTasks } from '../runs/background-tasks.js';
import type { RunJournal } from '../runs/journal.js';
import { formatBytes, formatDuration, outputBlock, renderOutput, type RenderedOutput } from './format-output.js';
import { keepAlive } from './keep-alive.js';
import { fail, failFromError, failedWithOutput, ok, type ShellToolContext } from './results.js';
import { classify, statusLine } from './status.js';

/** How much of the end of the output `poll` shows; `log` pages through all of it. */
const POLL_TAIL_CHARS = 4_000;

export const ProcessParams = z.object({
  action: z
    .enum(['list', 'poll', 'log', 'kill'])
    .describe('list: every background run of this session; poll: status and latest output of one run (optionally waiting for it to end); log: its output by lines; kill: stop it and its child processes.'),
  sessionId: z.string().optional().describe('The run id returned by exec with background: true (required for poll, log and kill).'),
  waitMs: z.number().int().min(0).max(60_000).default(0).describe('poll: wait up to this many milliseconds for the run to end (default 0, at most 60000).'),
  offset: z.number().int().min(1).default(1).describe('log: 1-based first line to show (default 1).'),
  limit: z.number().int().min(1).max(10_000).default(500).describe('log: most lines to show (default 500).'),
});
type ProcessParamsOut = z.output<typeof ProcessParams>;

/** The last `chars` of a text, starting at a line. */
function tail(text: string, chars: number): string {
  if (text.length <= chars) return text;
  const cut = text.indexOf('\n', text.length - chars);
  return `[... earlier output: read it with action "log" ...]\n${text.slice(cut < 0 ? text.length - chars : cut + 1)}`;
}

function ended(run: ExecRunInfo, rendered: RenderedOutput): ToolInvokeResult {
  const output = rendered.empty ? outputBlock(rendered) : tail(outputBlock(rendered), POLL_TAIL_CHARS);
  if (run.error) {
    // It never ran to an end of its own (no exit code): say why instead of a status line.
    const failure = { ...run.error, hint: 'The run could not run to its end; start it again if you still need it.' };
    return failedWithOutput(`${runSummary(run)}\n${output}`, runDetails(run), failure);
  }
  const end = runEnd(run);
  const body = `${runSummary(run)}\n${output}\n${statusLine(end, rendered)}`;
  const failure = classify(end);
  if (failure) return failedWithOutput(body, runDetails(run), failure);
  return { ...ok(body, runDetails(run)), ...(run.exitCode === 0 || run.status === 'killed' ? {} : { isError: true }) };
}

async function poll(runs: ExecRunService, params: ProcessParamsOut, ctx: ShellToolContext, missing: () => Promise<ToolInvokeResult>, tasks?: BackgroundTasks) {
  const id = params.sessionId!;
  const alive = params.waitMs > 0 ? keepAlive(ctx, (ms) => `waiting for ${id} (${Math.round(ms / 1000)} s)`) : undefined;
  const read = await runs.read(id, { waitMs: params.waitMs }, ctx.signal).finally(() => alive?.stop());
  if (read.run === null) return missing();
  tasks?.observe(read.run, runs, ctx.call?.sessionKey ?? '', ctx.reportTask);
  const rendered = renderOutput(read.output);
  if (read.run.status !== 'running') return ended(read.run, rendered);
  const so = `${formatDuration(runtimeMs(read.run))} s, ${formatBytes(read.run.outputBytes)} of output so far`;
  const latest = rendered.empty ? 'No output yet.' : `Latest output:\n${tail(outputBlock(rendered), POLL_TAIL_CHARS)}`;
  return ok(`${id} is still running (${so}). ${latest}\n[Poll again later, or pass waitMs (up to 60000) to wait for it to end.]`, runDetails(read.run));
}

async function log(runs: ExecRunService, params: ProcessParamsOut, ctx: ShellToolContext, missing: () => Promise<ToolInvokeResult>) {
  const read = await runs.read(params.sessionId!, {}, ctx.signal);
  if (read.run === null) return missing();
  const rendered = renderOutput(read.output);
  const lines = rendered.empty ? [] : rendered.text.replace(/\n$/, '').split('\n');
  const still = read.run.status === 'running' ? ' It is still running: more may come.' : '';
  const details = { ...runDetails(read.run), totalLines: lines.length };
  if (params.offset > lines.length) {
    const what = lines.length === 0 ? 'no output yet' : `${lines.length} lines of output`;
    return ok(`${read.run.runId} has ${what}; offset ${params.offset} is past the end.${still}`, details);
  }
  const shown = lines.slice(params.offset - 1, params.offset - 1 + params.limit);
  const last = params.offset - 1 + shown.length;
  const more = last < lines.length ? ` Use offset ${last + 1} to continue.` : '';
  const note = rendered.missingFinalNewline && last === lines.length ? ' The output does not end with a newline.' : '';
  return ok(`${shown.join('\n')}\n[Lines ${params.offset}-${last} of ${lines.length}.${more}${note}${still}]`, details);
}

async function kill(runs: ExecRunService, params: ProcessParamsOut, ctx: ShellToolContext, missing: () => Promise<ToolInvokeResult>, tasks?: BackgroundTasks) {
  const { run, killed } = await runs.kill(params.sessionId!);
  if (run === null) return missing();
  tasks?.observe(run, runs, ctx.call?.sessionKey ?? '', ctx.reportTask);
  if (killed) return ok(`Killed ${run.runId} and its whole process group after ${formatDuration(runtimeMs(run))} s.`, runDetails(run));
  if (run.status === 'running') {
    return fail('KILL_UNCONFIRMED', `The kill of ${run.runId} was sent, but the backend has not confirmed that its processes are gone`, 'Poll it to see whether it ended.', runDetails(run));
  }
  return ok(`${runSummary(run)}\nIt had already ended; nothing was killed.`, runDetails(run));
}

/** A run id the backend does not know: lost with a backend that restarted, or simply unknown (or long forgotten). */
async function explainMissing(runs: ExecRunService, journal: RunJournal, sessionKey: string, id: string): Promise<ToolInvokeResult> {
  const entry = journal.get(id, sessionKey);
  if (entry !== undefined && entry.instance !== (await runs.list()).instance) {
    return fail('RUN_LOST', `Background run ${id} is lost: the sandbox backend that ran it has restarted since, which stopped the command; its output is gone`, 'Start it again if you still need it.', { sessionId: id, status: 'lost', command: entry.command });
  }
  if (entry !== undefined) journal.forget([id]);
  return fail('NO_SUCH_RUN', `No background run ${id} in this session`, 'Use action "list" to see the runs of this session; finished runs are forgotten after a while.', { sessionId: id });
}

async function list(runs: ExecRunService, journal: RunJournal, ctx: ShellToolContext, tasks?: BackgroundTasks) {
  const sessionKey = ctx.call?.sessionKey ?? '';
  const { runs: known, instance } = await runs.list();
  for (const run of known) tasks?.observe(run, runs, sessionKey, ctx.reportTask);
  const missing = journal.entries(sessionKey).filter((e) => !known.some((r) => r.runId === e.runId));
  journal.forget(missing.filter((e) => e.instance === instance).map((e) => e.runId)); // forgotten by the backend, not lost
  const lost = missing.filter((e) => e.instance !== instance);
  const lines = [...known.map(runSummary), ...lost.map((e) => `${e.runId}  lost (its backend restarted; output gone)  ${e.command}`)];
  const details = { runs: [...known.map(runDetails), ...lost.map((e) => ({ sessionId: e.runId, status: 'lost', command: e.command, startedAt: e.startedAt }))] };
  return ok(lines.length === 0 ? 'No background runs in this session.' : lines.join('\n'), details);
}

export async function runProcess(params: ProcessParamsOut, ctx: ShellToolContext, journal: RunJournal, tasks?: BackgroundTasks): Promise<ToolInvokeResult> {
  const runs = ctx.workspace.runs;
  const sessionKey = ctx.call?.sessionKey ?? '';
  if (runs === undefined) return fail('BACKGROUND_UNAVAILABLE', 'This workspace cannot run commands in the background', 'Run commands in the foreground with exec.');
  try {
    if (params.action === 'list') return await list(runs, journal, ctx, tasks);
    const id = params.sessionId;
    if (id === undefined) return fail('INVALID_ARGUMENT', `action "${params.action}" needs a sessionId`, 'Pass the sessionId that exec returned, or use action "list" to see them.');
    const missing = () => explainMissing(runs, journal, sessionKey, id);
    if (params.action === 'poll') return await poll(runs, params, ctx, missing, tasks);
    if (params.action === 'log') return await log(runs, params, ctx, missing);
    return await kill(runs, params, ctx, missing, tasks);
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return failFromError(error, params.sessionId !== undefined ? { sessionId: params.sessionId } : {});
  }
}

/** `tasks` reports the runs it sees ended (or picks up running ones again) to the tasks ledger. */
export function createProcessTool(journal: RunJournal, tasks?: BackgroundTasks): ToolDefinition<typeof ProcessParams> {
  return defineTool({
    name: 'process',
    description:
      'Manage background runs started by exec with background: true: list them, poll one (its status and latest output, optionally waiting for it to end), read its output by lines (log), or kill it with its child processes. Runs belong to the session that started them.',
    inputSchema: ProcessParams,
    executionMode: 'sequential',
    handler: (params, ctx) => runProcess(params, ctx, journal, tasks),
  });
}
