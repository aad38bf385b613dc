/**
 * The host interface for agent turns. The kernel owns no model: an embedding host registers
 * a TurnRunner, and the kernel hands it every turn it starts (a subagent, a send to another
 * session, a cron job's run, a memory flush), with the run's policy context already decided.
 */
import type { ToolSet } from '../assembly/tool-set.js';
import type { RunTrigger } from '../policy/index.js';

/** One turn to run. The runner assembles `context.tools()` and lets its model call them. */
export interface TurnRequest {
  /** This turn's run id (loop history and approvals are kept per run). */
  runId: string;
  agentId: string;
  sessionKey: string;
  trigger: RunTrigger;
  /** The cron job this run belongs to (trigger `cron`). */
  jobId?: string;
  /** The parent run's effective allowlist (the `inherited` layer); absent for a top-level run. */
  inheritedAllowlist?: readonly string[];
  /** A runtime cap (a cron job's `toolsAllow`); `[]` disables every tool. */
  toolsAllow?: readonly string[];
  /** 0 for a top-level run, n for a subagent n levels down. */
  subagentDepth: number;
  /** The message that starts the turn. */
  message: string;
  /** Who sent it, when another session did (agent-to-agent `sessions_send`). */
  source?: { agentId: string; sessionKey: string };
  /** Trigger `memory`: the one workspace-relative file the run may append to. */
  memoryWritePath?: string;
}

export interface TurnContext {
  /** Aborted when the turn is cancelled (`subagents` cancel, `pincer tasks cancel`) or the kernel stops. */
  signal: AbortSignal;
  /** The turn's tools: assembled with this turn's run context (every layer applied). */
  tools(): ToolSet;
  /** Reports progress to the tasks ledger (one short line). */
  progress(message: string): void;
}

export interface TurnResult {
  /** The assistant's final text, kept in the session's history and returned to senders. */
  reply?: string;
}

/** What an embedding host registers with `kernel.registerTurnRunner(runner)`. */
export interface TurnRunner {
  runTurn(request: TurnRequest, context: TurnContext): Promise<TurnResult>;
}

/** The end of a turn as the kernel reports it. */
export interface TurnOutcome {
  runId: string;
  sessionKey: string;
  taskId: string;
  state: 'succeeded' | 'failed' | 'cancelled';
  reply?: string;
  error?: string;
}
