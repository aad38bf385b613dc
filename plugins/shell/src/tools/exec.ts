import * as z from 'zod';
import type { ToolInvokeResult, WorkspaceExecOptions, WorkspaceExecResult } from '../../../../protocol/index.js';
import { defineTool, type ToolDefinition } from '../../../../sdk/plugin-api.js';
import { ENV_NAME_PATTERN } from '../../../../sdk/sandbox/shell/command-env.js';
import type { BackgroundTasks } from '../runs/background-tasks.js';
import type { RunJournal } from '../runs/journal.js';
import { formatSeconds, outputBlock, renderOutput } from './format-output.js';
import { keepAlive } from './keep-alive.js';
import { outputProgress } from './output-progress.js';
import { fail, failFromError, failedWithOutput, ok, type ShellToolContext } from './results.js';
import { classify, statusLine } from './status.js';

/** Defaults and limits of the exec tool; the backend applies its own hard limits on top. */
export const EXEC_DEFAULTS = {
  timeoutSeconds: 120,
  backgroundTimeoutSeconds: 30 * 60,
  maxTimeoutSeconds: 2 * 60 * 60,
  /** The smallest timeout: 1 ms (a smaller one would round to no time at all). */
  minTimeoutSeconds: 0.001,
  maxOutputBytes: 128 * 1024,
  /** A background run keeps more: its log is read in pages. */
  maxBackgroundOutputBytes: 512 * 1024,
} as const;

export const EXEC_DESCRIPTION =
  'Run a shell command in the workspace (/bin/sh -c) and return its output (stdout, and stderr under [stderr], in the order they came) and exit code. ' +
  'Commands that exceed the timeout are killed with all their child processes. Output beyond 128 KiB is cut in the middle: the start and the end are kept. ' +
  'Processes a command leaves running (started with & or nohup) are killed when it exits: for servers, watchers and long builds, set background: true and manage the run with the process tool. ' +
  'The command has no terminal: stdin is empty unless given, TERM=dumb, PAGER=cat, and EDITOR/GIT_EDITOR do nothing.';

export const ExecParams = z.object({
  command: z.string().min(1).describe('Shell command line, run with /bin/sh -c in the workspace (pipes, &&, redirects work).'),
  cwd: z
    .string()
    .optional()
    .describe('Working directory: relative to the workspace root (default: the root), or absolute as the command sees it (what pwd prints). Must stay inside the workspace.'),
  env: z
    .record(z.string().regex(ENV_NAME_PATTERN, 'must be an environment variable name: letters, digits and _, not starting with a digit'), z.string())
    .optional()
    .describe('Extra environment variables. Only PATH, HOME, LANG and TMPDIR are inherited otherwise.'),
  timeout: z
    .number()
    .min(EXEC_DEFAULTS.minTimeoutSeconds, `must be at least ${EXEC_DEFAULTS.minTimeoutSeconds} seconds (1 ms)`)
    .max(EXEC_DEFAULTS.maxTimeoutSeconds)
    .optional()
    .describe('Seconds before the command and all its child processes are killed (default 120; 1800 for background runs; at most 7200).'),
  background: z
    .boolean()
    .default(false)
    .describe('Start the command and return at once with a sessionId; check it later with the process tool (poll, log, kill). Use for servers and long builds.'),
  stdin: z.string().optional().describe('Text written to the command’s standard input.'),
});
type ExecParamsOut = z.output<typeof ExecParams>;

function execOptions(params: ExecParamsOut, timeoutSeconds: number, maxOutputBytes: number): WorkspaceExecOptions & { timeoutMs: number } {
  return {
    ...(params.cwd !== undefined ? { cwd: params.cwd } : {}),
    ...(params.env !== undefined ? { env: params.env } : {}),
    ...(params.stdin !== undefined ? { stdin: params.stdin } : {}),
    timeoutMs: Math.max(1, Math.round(timeoutSeconds * 1000)),
    maxOutputBytes,
  };
}

/** Output, status line, and for a classified failure its code and hint: nothing the command printed is left out. */
export function execResult(result: WorkspaceExecResult, timeoutMs: number, details: Record<string, unknown>): ToolInvokeResult {
  const rendered = renderOutput(result.output ?? [{ stream: 'stdout', text: result.stdout }, { stream: 'stderr', text: result.stderr }]);
  const end = { ...result, timeoutMs };
  const { stdout: _o, stderr: _e, output: _s, ...facts } = result;
  const text = `${outputBlock(rendered)}\n${statusLine(end, rendered)}`;
  const all = { ...details, ...facts, timeoutMs };
  const failure = classify(end);
  if (failure) return failedWithOutput(text, all, failure);
  return { ...ok(text, all), ...(result.exitCode === 0 ? {} : { isError: true }) };
}

async function runForeground(params: ExecParamsOut, ctx: ShellToolContext, details: Record<string, unknown>): Promise<ToolInvokeResult> {
  const options = execOptions(params, params.timeout ?? EXEC_DEFAULTS.timeoutSeconds, EXEC_DEFAULTS.maxOutputBytes);
  // The kernel's deadline is idle time: progress keeps a long command's call alive until its own timeout.
  const alive = keepAlive(ctx, (ms) => `still running after ${Math.round(ms / 1000)} s (timeout ${formatSeconds(options.timeoutMs)} s)`);
  try {
    return execResult(await ctx.workspace.exec(params.command, options, ctx.signal, outputProgress(ctx, alive)), options.timeoutMs, details);
  } finally {
    alive.stop();
  }
}

async function runBackground(params: ExecParamsOut, ctx: ShellToolContext, journal: RunJournal, tasks: BackgroundTasks | undefined, details: Record<string, unknown>): Promise<ToolInvokeResult> {
  const runs = ctx.workspace.runs;
  if (runs === undefined) return fail('BACKGROUND_UNAVAILABLE', 'This workspace cannot run commands in the background', 'Run the command in the foreground with a timeout.', details);
  const options = execOptions(params, params.timeout ?? EXEC_DEFAULTS.backgroundTimeoutSeconds, EXEC_DEFAULTS.maxBackgroundOutputBytes);
  const started = await runs.start(params.command, options);
  if (!started.started) {
    const hint = started.limit === 'session' ? 'Wait for a run to end, or kill one you no longer need with the process tool.' : 'Other sessions are using every slot; wait, or run the command in the foreground.';
    return fail('TOO_MANY_RUNS', started.message, hint, { ...details, limit: started.limit, max: started.max });
  }
  const { runId, instance, startedAt } = started.run;
  journal.record({ runId, instance, startedAt, sessionKey: ctx.call?.sessionKey ?? '', command: params.command });
  tasks?.observe(started.run, runs, ctx.call?.sessionKey ?? '', ctx.reportTask);
  const text = `Started background run ${runId} (timeout ${formatSeconds(options.timeoutMs)} s). Check it with the process tool: {"action": "poll", "sessionId": "${runId}"}.`;
  return ok(text, { ...details, sessionId: runId, status: 'running', background: true, timeoutMs: options.timeoutMs });
}

export async function runExec(params: ExecParamsOut, ctx: ShellToolContext, journal: RunJournal, tasks?: BackgroundTasks): Promise<ToolInvokeResult> {
  const details = { command: params.command, ...(params.cwd !== undefined ? { cwd: params.cwd } : {}) };
  try {
    return params.background ? await runBackground(params, ctx, journal, tasks, details) : await runForeground(params, ctx, details);
  } catch (error) {
    if (ctx.signal.aborted) throw error; // cancelled: the SDK answers the kernel's $/cancelRequest
    return failFromError(error, details);
  }
}

/** `tasks` reports background runs to the kernel's tasks ledger (none: not reported). */
export function createExecTool(journal: RunJournal, tasks?: BackgroundTasks): ToolDefinition<typeof ExecParams> {
  return defineTool({
    name: 'exec',
    description: EXEC_DESCRIPTION,
    inputSchema: ExecParams,
    aliases: ['bash'],
    executionMode: 'sequential',
    handler: (params, ctx) => runExec(params, ctx, journal, tasks),
  });
}
