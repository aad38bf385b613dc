/**
 * `subagents`: the model's view of the tasks ledger for its agent: list background work
 * (subagents, cron runs), show one task, or cancel one. Cancelling reaches the real work: the
 * kernel running the task aborts its turn and, through it, the tool calls and commands in flight.
 */
import * as z from 'zod';
import { defineTool } from '../../../sdk/plugin-api.js';
import { errorResult, okResult } from '../../../sdk/tool-results.js';
import type { TaskRecord } from '../../../protocol/index.js';
import type { LedgerStore } from './ledger-store.js';

function line(task: TaskRecord): string {
  return `${task.id}  ${task.kind}  ${task.state}${task.cancelRequested && task.state === 'running' ? ' (cancel requested)' : ''}  ${task.title}${task.progress ? `  [${task.progress}]` : ''}`;
}

export function createSubagentsTool(ledger: () => LedgerStore, onCancel: (id: string) => void) {
  return defineTool({
    name: 'subagents',
    description: 'Background work of your agent (subagents, automation runs): list it, show one task, or cancel one.',
    inputSchema: z.object({
      action: z.enum(['list', 'show', 'cancel']).describe('list: recent tasks; show: one task in full; cancel: stop an unfinished task.'),
      taskId: z.string().max(128).optional().describe('The task (for show and cancel).'),
      state: z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']).optional().describe('list: only tasks in this state.'),
      limit: z.number().int().min(1).max(200).default(20),
    }),
    handler: (params, ctx) => {
      const agentId = ctx.call.agentId ?? '';
      if (params.action === 'list') {
        const tasks = ledger().query({ agentId, states: params.state ? [params.state] : undefined, limit: params.limit });
        return okResult(tasks.length ? tasks.map(line).join('\n') : 'No tasks.', { tasks });
      }
      if (!params.taskId) return errorResult('INVALID_ARGUMENTS', `${params.action} needs taskId`, 'Call subagents with action "list" to find it.');
      // Another agent's tasks do not exist for this one.
      const task = ledger().query({ id: params.taskId, agentId, limit: 1 })[0];
      if (!task) return errorResult('TASK_NOT_FOUND', `no task "${params.taskId}" of this agent`, 'Call subagents with action "list" to see your tasks.');
      if (params.action === 'show') return okResult(`${line(task)}${task.result ? `\n${task.result}` : ''}${task.error ? `\nerror: ${task.error}` : ''}`, { task });
      if (['succeeded', 'failed', 'cancelled'].includes(task.state)) return okResult(`Task ${task.id} already ended (${task.state}).`, { task });
      const flagged = ledger().requestCancel(task.id) ?? task;
      onCancel(task.id);
      return okResult(`Cancel requested for ${task.id}; its turn and the work it started are being stopped.`, { task: flagged });
    },
  });
}
