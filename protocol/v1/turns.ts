import * as z from 'zod';
import { defineRequest } from '../define.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * Agent turns, asked for by the plugins that serve the sessions and automations tools: the
 * kernel owns no model, so it hands each turn to the turn runner its embedding host
 * registered, with the run's policy (trigger, depth, inherited allowlist, cap) decided by the
 * kernel from its own records of the calling run, never from what the plugin claims.
 * A refusal is error `TurnRefused` with `data.reason` one of TURN_REFUSAL_REASONS.
 * @since 1
 */
export const TURN_REFUSAL_REASONS = [
  'NO_TURN_RUNNER', // the embedding host registered no turn runner
  'UNKNOWN_CALL', // the call token is not one of this plugin's calls in flight
  'NOT_DESIGNATED', // this plugin does not serve the core tool the request belongs to
  'SPAWN_DEPTH_EXCEEDED', // the child would be deeper than tools.subagents.maxSpawnDepth
  'TOO_MANY_CHILDREN', // the calling run already has MAX_RUNNING_CHILDREN subagents running
  'SESSION_NOT_VISIBLE', // the session belongs to another agent (or does not exist)
  'AGENT_TO_AGENT_DENIED', // tools.agentToAgent does not allow this pair of agents
  'JOB_TOOLS_REMOVED', // none of the tools a cron job was granted is available to its agent any more
  'INVALID_REQUEST', // a field is missing or malformed; the message names it
  'KERNEL_STOPPING', // the kernel is shutting down
] as const;
export type TurnRefusalReason = (typeof TURN_REFUSAL_REASONS)[number];

/** Subagents one run may have running at once; a model cannot fan out without bound. @since 1 */
export const MAX_RUNNING_CHILDREN = 8;

/** A session (or run) key as plugins send it: printable, bounded. */
const Key = lazySchema(() => z.string().min(1).max(512));

/** What the kernel knows of the run a tool call belongs to. @since 1 */
export const RunInfo = lazySchema(() => z.object({
  runId: z.string(),
  agentId: z.string(),
  sessionKey: z.string(),
  trigger: z.string(),
  jobId: z.string().optional(),
  /** 0 for a main run, n for a sub-session n levels down. */
  depth: z.number().int().min(0),
  maxSpawnDepth: z.number().int().min(1),
  /** Normalized names of every tool the run holds: its effective allowlist. */
  tools: z.array(z.string()),
  /** Plugin id → the run's tools that plugin serves as plugin (non-core) tools: what a plugin id or `group:plugins` in a tool list names. */
  pluginTools: z.record(z.string(), z.array(z.string())).optional(),
}));
export type RunInfo = z.infer<typeof RunInfo>;

/** @since 1 */
export const RunDescribe = defineRequest('run/describe', lazySchema(() => z.object({ callToken: Key })), RunInfo, {
  direction: 'plugin-to-kernel',
  since: 1,
  doc: 'Describes the run of one of the plugin’s tool calls in flight (named by the callToken of its context): agent, session, trigger, job, depth and the tools it holds.',
  capability: 'turns',
});

/** @since 1 */
export const TurnStartParams = lazySchema(() => z.object({
  /**
   * `subagent`: a child session of the calling run (sessions_spawn); `send`: a turn in another
   * session, labelled with the caller's (sessions_send); `cron`: an isolated run of a job
   * (the automations plugin's scheduler; no call in flight).
   */
  kind: z.enum(['subagent', 'send', 'cron']),
  /** The calling tool call (`subagent`, `send`). */
  callToken: Key.optional(),
  message: z.string().max(256 * 1024),
  /** `send`: the target session. */
  sessionKey: Key.optional(),
  /** `cron`: the job's agent and id, and its tool cap (`[]` = no tools). */
  agentId: Key.optional(),
  jobId: Key.optional(),
  toolsAllow: z.array(z.string().max(256)).max(1024).optional(),
  label: z.string().max(200).optional(),
  /** Wait this long for the turn to end (0 = return as soon as it started). */
  waitMs: z.number().int().min(0).max(3_600_000).default(0),
}));
export type TurnStartParams = z.input<typeof TurnStartParams>;

/** @since 1 */
export const TurnState = lazySchema(() => z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled']));
export type TurnState = z.infer<typeof TurnState>;

/** @since 1 */
export const TurnStartResult = lazySchema(() => z.object({
  runId: z.string(),
  sessionKey: z.string(),
  taskId: z.string(),
  state: TurnState,
  reply: z.string().optional(),
  error: z.string().optional(),
}));
export type TurnStartResult = z.infer<typeof TurnStartResult>;

/** @since 1 */
export const TurnStart = defineRequest('turns/start', TurnStartParams, TurnStartResult, {
  direction: 'plugin-to-kernel',
  since: 1,
  doc: 'Starts an agent turn through the host’s turn runner: a subagent of the calling run, a labelled send to another session, or a cron job’s isolated run. Each is a task in the ledger.',
  capability: 'turns',
});

/** @since 1 */
export const SessionQueryParams = lazySchema(() => z.object({
  callToken: Key,
  op: z.enum(['list', 'history', 'status', 'yield']),
  sessionKey: Key.optional(),
  limit: z.number().int().min(1).max(500).default(50),
  /** `yield`: how long to wait for the calling run's children. */
  waitMs: z.number().int().min(0).max(3_600_000).default(30_000),
}));
export type SessionQueryParams = z.input<typeof SessionQueryParams>;

/** @since 1 */
export const SessionQuery = defineRequest('sessions/query', SessionQueryParams, lazySchema(() => z.record(z.string(), z.unknown())), {
  direction: 'plugin-to-kernel',
  since: 1,
  doc: 'Reads the sessions the calling run may see: list, one session’s history or status, or (yield) waits for the calling run’s subagents and returns their results.',
  capability: 'turns',
});

export const TURNS_METHODS = Object.freeze({ RunDescribe, TurnStart, SessionQuery });
