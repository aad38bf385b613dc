/** `pincer tasks list | show | cancel`: the tasks ledger (subagents, cron runs) as an operator sees it. */
import { fileURLToPath } from 'node:url';
import { COMMON_OPTIONS, expectPositionals, parseFlags } from '../args.js';
import { out, outJson, terminalWidth, type CliContext, type Command } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { renderTable } from '../format/table.js';
import type { PincerConfig, TaskRecord } from '../kernel.js';
import { withKernel } from '../kernel-session.js';

const STATES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;

/** The bundled ledger plugin, added when the config has no `tasks` plugin (the ledger lives in the state dir either way). */
function when(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

function formatTasks(ctx: CliContext, tasks: readonly TaskRecord[]): string {
  if (tasks.length === 0) return 'No tasks.';
  const c = ctx.colors;
  const state = (task: TaskRecord) => {
    const s = task.cancelRequested && task.state === 'running' ? 'cancelling' : task.state;
    return s === 'succeeded' ? c.green(s) : s === 'failed' ? c.red(s) : s === 'running' || s === 'cancelling' ? c.yellow(s) : c.dim(s);
  };
  const rows = tasks.map((task) => [task.id, task.kind, state(task), task.agentId || task.ownerPlugin || '-', when(task.createdAt), task.title]);
  return renderTable([{ header: 'TASK' }, { header: 'KIND' }, { header: 'STATE' }, { header: 'AGENT' }, { header: 'CREATED' }, { header: 'TITLE' }], rows, { width: terminalWidth(ctx), headerStyle: c.bold });
}

function formatTask(task: TaskRecord): string {
  const fields: [string, unknown][] = [
    ['task', task.id], ['kind', task.kind], ['state', task.state], ['agent', task.agentId], ['session', task.sessionKey], ['parent session', task.parentSessionKey], ['job', task.jobId],
    ['owner plugin', task.ownerPlugin], ['title', task.title], ['progress', task.progress], ['cancel requested', task.cancelRequested ? 'yes' : undefined],
    ['created', when(task.createdAt)], ['updated', when(task.updatedAt)], ['error', task.error], ['result', task.result],
  ];
  return fields.filter(([, v]) => v !== undefined && v !== '').map(([k, v]) => `${`${k}:`.padEnd(17)} ${String(v)}`).join('\n');
}

export const tasksCommand: Command = {
  name: 'tasks',
  summary: 'List, show or cancel detached work: subagents and cron runs',
  help: `Usage: pincer tasks list [--agent A] [--state S] [--limit N] [--json]
       pincer tasks show TASK [--json]
       pincer tasks cancel TASK [--json]

The tasks ledger: every subagent (sessions_spawn) and cron run, with its state
(queued, running, succeeded, failed, cancelled), progress and result. It lives
in the tasks plugin's data dir ($PINCER_STATE_DIR/plugins/tasks, default
~/.pincer/state), so this command sees the tasks of every kernel sharing that
state dir. 'cancel' asks a task to stop: the kernel that runs it (this one or
another process) aborts its turn within about a second, and with it the tool
calls and commands the turn started.

Exit status: 0 on success; 1 when the task is unknown.

Options:
  -a, --agent A    list: only this agent's tasks
      --state S    list: only tasks in state S (${STATES.join(', ')})
      --limit N    list: at most N tasks, newest first (default 50)
  -c, --config F   config file (else $PINCER_CONFIG, ./pincer.config.json, embedded default)
      --json       machine-readable output`,

  async run(ctx, argv) {
    const options = { ...COMMON_OPTIONS, agent: { type: 'string', short: 'a' }, state: { type: 'string' }, limit: { type: 'string' } } as const;
    const { values, positionals } = parseFlags('tasks', argv, options);
    const [action, id] = positionals;
    if (action === 'list') expectPositionals('tasks', positionals, 1, 1, 'no task id for list');
    else if (action === 'show' || action === 'cancel') expectPositionals('tasks', positionals, 2, 2, `a task id: pincer tasks ${action} TASK`);
    else throw usageError(action ? `unknown tasks action '${action}' (list, show, cancel)` : "'pincer tasks' needs an action: list, show or cancel", 'tasks');
    const state = values.state;
    if (state !== undefined && !(STATES as readonly string[]).includes(state)) throw usageError(`--state must be one of ${STATES.join(', ')}, not '${state}'`, 'tasks');
    const limit = values.limit === undefined ? 50 : Number(values.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw usageError(`--limit must be a whole number from 1 to 1000, not '${values.limit}'`, 'tasks');

    return withKernel(ctx, { configFlag: values.config, command: 'tasks', withBundled: ['tasks'] }, async ({ kernel }) => {
      const ledger = kernel.tasks;
      const plugin = kernel.plugins().find((p) => p.id === 'tasks');
      // Without its plugin the kernel would answer from memory: an empty list that looks like "no tasks".
      if (!ledger || plugin?.state !== 'ready') {
        const why = plugin?.lastError ? `: ${typeof plugin.lastError === 'string' ? plugin.lastError : plugin.lastError.message}` : '';
        throw new CliError('KERNEL', `the tasks ledger is not available (plugin "tasks" is ${plugin?.state ?? 'not configured'}${why})`, { hint: "Run 'pincer plugins' for details." });
      }
      if (action === 'list') {
        const tasks = await ledger.list({ agentId: values.agent, states: state ? [state as (typeof STATES)[number]] : undefined, limit });
        if (values.json) outJson(ctx, { tasks });
        else out(ctx, formatTasks(ctx, tasks));
        return 0;
      }
      const task = action === 'show' ? await ledger.get(id!) : await ledger.cancel(id!);
      if (!task) throw new CliError('NOT_FOUND', `no task '${id}' in the ledger`, { hint: "Run 'pincer tasks list' to see the tasks." });
      if (values.json) outJson(ctx, { task });
      else if (action === 'show') out(ctx, formatTask(task));
      else out(ctx, ['succeeded', 'failed', 'cancelled'].includes(task.state) ? `Task ${task.id} already ended (${task.state}).` : `Cancel requested for ${task.id}; the kernel running it stops its work.`);
      return 0;
    });
  },
};
