/**
 * The sessions tools: spawn a subagent, send to another session, wait for subagents, and
 * read sessions. Every one asks the kernel, which decides from its own record of the calling
 * run (depth, tools, agent); this plugin holds no session state of its own.
 */
import * as z from 'zod';
import { defineTool, type ToolDefinition } from '../../../sdk/plugin-api.js';
import { okResult } from '../../../sdk/tool-results.js';
import { refusalAsResult } from './refusal.js';

const seconds = (max: number, fallback: number) => z.number().int().min(0).max(max).default(fallback);
const json = (value: unknown): string => JSON.stringify(value, null, 2);

export const sessionsSpawn = defineTool({
  name: 'sessions_spawn',
  description: 'Spawn a subagent: a hidden child session that works on a task in the background with at most your tools. Returns at once; use sessions_yield to collect its result.',
  inputSchema: z.object({
    task: z.string().min(1).max(64_000).describe('What the subagent should do (its first message).'),
    label: z.string().max(200).optional().describe('A short name for the task list.'),
  }),
  handler: (params, ctx) =>
    refusalAsResult(async () => {
      const started = await ctx.kernel.startTurn({ kind: 'subagent', message: params.task, label: params.label, waitMs: 0 });
      return okResult(`Spawned subagent session ${started.sessionKey} (task ${started.taskId}, ${started.state}). Call sessions_yield to wait for its result.`, started);
    }),
});

export const sessionsSend = defineTool({
  name: 'sessions_send',
  description: 'Send a message to another session and wait for its reply. The message is labelled with your session as its source.',
  inputSchema: z.object({
    sessionKey: z.string().min(1).max(512).describe('The target session (from sessions_list).'),
    message: z.string().min(1).max(64_000),
    timeoutSeconds: seconds(600, 30).describe('How long to wait for the reply (0: do not wait).'),
  }),
  handler: (params, ctx) =>
    refusalAsResult(async () => {
      const sent = await ctx.kernel.startTurn({ kind: 'send', sessionKey: params.sessionKey, message: params.message, waitMs: params.timeoutSeconds * 1000 });
      const text = sent.state === 'running' ? `Sent to ${sent.sessionKey}; no reply yet (task ${sent.taskId}).` : `Reply from ${sent.sessionKey} (${sent.state}):\n${sent.reply ?? sent.error ?? ''}`;
      return okResult(text, sent);
    }),
});

export const sessionsYield = defineTool({
  name: 'sessions_yield',
  description: 'Wait for the subagents this turn spawned and return their results.',
  inputSchema: z.object({ timeoutSeconds: seconds(3_600, 60).describe('How long to wait for unfinished subagents.') }),
  handler: (params, ctx) =>
    refusalAsResult(async () => {
      const result = (await ctx.kernel.querySessions({ op: 'yield', waitMs: params.timeoutSeconds * 1000 })) as { children: { sessionKey: string; state: string; reply?: string; error?: string }[] };
      const lines = result.children.map((c) => `${c.sessionKey}: ${c.state}${c.reply ? `\n${c.reply}` : ''}${c.error ? `\n${c.error}` : ''}`);
      return okResult(lines.length ? lines.join('\n\n') : 'This turn has spawned no subagents.', result);
    }),
});

export const sessionsList = defineTool({
  name: 'sessions_list',
  description: 'List your agent’s sessions, most recently active first.',
  inputSchema: z.object({ limit: z.number().int().min(1).max(200).default(50) }),
  handler: (params, ctx) => refusalAsResult(async () => { const r = await ctx.kernel.querySessions({ op: 'list', limit: params.limit }); return okResult(json(r.sessions), r); }),
});

export const sessionsHistory = defineTool({
  name: 'sessions_history',
  description: 'Read the messages of one of your agent’s sessions (sent messages name their source session).',
  inputSchema: z.object({ sessionKey: z.string().min(1).max(512), limit: z.number().int().min(1).max(200).default(50) }),
  handler: (params, ctx) => refusalAsResult(async () => { const r = await ctx.kernel.querySessions({ op: 'history', sessionKey: params.sessionKey, limit: params.limit }); return okResult(json(r.messages), r); }),
});

export const sessionStatus = defineTool({
  name: 'session_status',
  description: 'Show the status of this session (or another of your agent’s): trigger, depth, running turns, active tasks.',
  inputSchema: z.object({ sessionKey: z.string().min(1).max(512).optional() }),
  handler: (params, ctx) => refusalAsResult(async () => { const r = await ctx.kernel.querySessions({ op: 'status', sessionKey: params.sessionKey }); return okResult(json(r), r); }),
});

export const SESSIONS_TOOLS: ToolDefinition<any>[] = [sessionsSpawn, sessionsSend, sessionsYield, sessionsList, sessionsHistory, sessionStatus];
