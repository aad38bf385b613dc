import * as z from 'zod';
import { defineNotification, defineRequest } from '../define.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * The tasks ledger: detached work (subagents, cron runs, background commands) with its state,
 * progress and cancellation. The kernel records tasks in the plugin that declared the
 * `taskLedger` capability; a work-owning plugin reports its own tasks with `tasks/report`
 * and is asked to stop one with `tasks/cancel`.
 * @since 1
 */
export const TaskState = lazySchema(() => z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']));
export type TaskState = z.infer<typeof TaskState>;

export const TASK_KINDS = ['subagent', 'cron', 'send', 'exec'] as const;

/** One task as the ledger keeps it. @since 1 */
export const TaskRecord = lazySchema(() => z.object({
  id: z.string().min(1).max(128),
  kind: z.string().min(1).max(32),
  state: TaskState,
  agentId: z.string().max(256),
  sessionKey: z.string().max(512).optional(),
  /** The session that started it (a subagent's parent, a cron job's creator). */
  parentSessionKey: z.string().max(512).optional(),
  jobId: z.string().max(256).optional(),
  /** The plugin whose work it is (`exec` tasks), or absent for the kernel's own turns. */
  ownerPlugin: z.string().max(64).optional(),
  title: z.string().max(500),
  progress: z.string().max(500).optional(),
  result: z.string().max(16_384).optional(),
  error: z.string().max(4_096).optional(),
  cancelRequested: z.boolean().optional(),
  createdAt: z.number(),
  updatedAt: z.number(),
}));
export type TaskRecord = z.infer<typeof TaskRecord>;

/** Kernel → ledger: insert or update a task (states only move forward). @since 1 */
export const TasksRecord = defineRequest('tasks/record', lazySchema(() => z.object({ task: TaskRecord })), TaskRecord, {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Writes one task to the ledger and answers it as stored: a finished task never moves back to running.',
  capability: 'taskLedger',
});

/** @since 1 */
export const TasksQueryParams = lazySchema(() => z.object({
  id: z.string().optional(),
  agentId: z.string().optional(),
  parentSessionKey: z.string().optional(),
  states: z.array(TaskState).optional(),
  limit: z.number().int().min(1).max(1000).default(100),
}));
export type TasksQueryParams = z.input<typeof TasksQueryParams>;

/** Kernel → ledger: tasks, newest first. @since 1 */
export const TasksQuery = defineRequest('tasks/query', TasksQueryParams, lazySchema(() => z.object({ tasks: z.array(TaskRecord) })), {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Lists tasks matching the filter, newest first.',
  capability: 'taskLedger',
});

/** Kernel → ledger: mark a task as asked to stop (the ledger tells its owner, in this process or another). @since 1 */
export const TasksRequestCancel = defineRequest('tasks/requestCancel', lazySchema(() => z.object({ id: z.string() })), lazySchema(() => z.object({ task: TaskRecord.optional() })), {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Records a cancel request for an unfinished task and answers the task (absent if unknown). The ledger notifies the kernel that runs it with tasks/cancelRequested.',
  capability: 'taskLedger',
});

/** Ledger → kernel: a task this kernel runs was asked to stop (by a tool, or by `pincer tasks cancel` elsewhere). @since 1 */
export const TasksCancelRequested = defineNotification('tasks/cancelRequested', lazySchema(() => z.object({ id: z.string() })), {
  direction: 'plugin-to-kernel',
  since: 1,
  doc: 'A task recorded by this kernel was asked to stop; the kernel cancels the real work.',
});

/** Work-owning plugin → kernel: the state of one of its own tasks (e.g. a background command). @since 1 */
export const TasksReport = defineNotification(
  'tasks/report',
  lazySchema(() => z.object({ localId: z.string().min(1).max(128), kind: z.string().min(1).max(32), state: TaskState, title: z.string().max(500), progress: z.string().max(500).optional(), sessionKey: z.string().max(512).optional(), error: z.string().max(4_096).optional() })),
  { direction: 'plugin-to-kernel', since: 1, doc: 'Reports a task the plugin runs; the kernel records it in the ledger under the plugin as owner.' },
);

/** Kernel → work-owning plugin: stop one of your tasks. @since 1 */
export const TasksCancel = defineRequest('tasks/cancel', lazySchema(() => z.object({ localId: z.string() })), lazySchema(() => z.object({ stopped: z.boolean() })), {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Stops a task the plugin reported; answers whether it was still running.',
});

export const TASKS_METHODS = Object.freeze({ TasksRecord, TasksQuery, TasksRequestCancel, TasksCancelRequested, TasksReport, TasksCancel });
