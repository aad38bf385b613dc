/**
 * The kernel's answers to plugins' turn, session and task requests. Every decision is made
 * from the kernel's own records: the calling run (by call token), the config (spawn depth,
 * agent-to-agent), and which plugin is designated to serve the tool a request belongs to.
 */
import { randomUUID } from 'node:crypto';
import { MAX_RUNNING_CHILDREN, SessionQueryParams, TurnStartParams, type RunInfo, type TaskState, type TurnStartResult } from '../../protocol/index.js';
import type { PincerConfig } from '../config/schema.js';
import type { HostServices, PluginHost } from '../host/index.js';
import type { RunContext } from '../policy/index.js';
import { foldId } from '../policy/id-match.js';
import { assertAgentToAgent } from './agent-to-agent.js';
import type { CallRegistry, CallerRun } from './call-registry.js';
import { MAX_OPEN_REPORTED_TASKS, ReportedTasks } from './reported-tasks.js';
import { TurnError } from './errors.js';
import { sessionBelongsTo, type SessionDirectory, type SessionEntry } from './sessions.js';
import type { TaskLedger } from './task-ledger.js';
import type { StartedTurn, TurnService } from './turn-service.js';
import type { TurnOutcome } from './types.js';

export interface TurnRequestDeps {
  config: PincerConfig;
  host: PluginHost;
  calls: CallRegistry;
  turns: TurnService;
  sessions: SessionDirectory;
  ledger: TaskLedger;
  /** The agent id `agentId` resolves to (throws for an unknown agent). */
  agentKnown(agentId: string): string;
  /** The tools a run with this context would hold now. */
  probeTools(run: RunContext): readonly string[];
  /** The agent of a session handle the plugin was called for. */
  agentOfSession(pluginId: string, handle: string | undefined): string | undefined;
  /** Stops the work of a task: a turn here, or a plugin's own task. */
  stopWork(id: string, reason: string): Promise<void>;
  warn?(message: string): void;
}

/** Which core tool a request belongs to: only the plugin designated to serve it may ask. */
const SERVES: Readonly<Record<string, readonly string[]>> = {
  subagent: ['sessions_spawn'],
  send: ['sessions_send'],
  cron: ['automations'],
  sessions: ['sessions_list', 'sessions_history', 'session_status', 'sessions_yield', 'subagents'],
};

function assertDesignated(host: PluginHost, pluginId: string, what: keyof typeof SERVES): void {
  if (!SERVES[what]!.some((tool) => host.designatedPlugin(tool) === pluginId)) {
    throw new TurnError('NOT_DESIGNATED', `plugin "${pluginId}" may not ask for ${what} turns: it is not the plugin designated to serve ${SERVES[what]!.join(' or ')}`);
  }
}

/** Waits up to `ms` for a turn; undefined when it is still running then. */
async function settleWithin(done: Promise<TurnOutcome>, ms: number): Promise<TurnOutcome | undefined> {
  if (ms <= 0) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([done, timeout]).finally(() => clearTimeout(timer));
}

function sessionView(entry: SessionEntry) {
  const { history, ...rest } = entry;
  return { ...rest, messages: history.length, lastMessage: history.at(-1)?.text.slice(0, 200) };
}

export function createTurnRequestHandler(deps: TurnRequestDeps): HostServices {
  const { config, host, calls, turns, sessions, ledger } = deps;
  const reported = new ReportedTasks();
  const warnedFull = new Set<string>(); // one warning per plugin while it is at the cap, not one per report

  async function startResult(turn: StartedTurn, waitMs: number): Promise<TurnStartResult> {
    const outcome = await settleWithin(turn.done, waitMs);
    return { runId: turn.runId, sessionKey: turn.sessionKey, taskId: turn.taskId, state: outcome?.state ?? 'running', reply: outcome?.reply, error: outcome?.error };
  }

  function spawn(caller: CallerRun, params: ReturnType<typeof TurnStartParams.parse>): StartedTurn {
    const depth = caller.depth + 1;
    if (depth > caller.maxSpawnDepth) {
      throw new TurnError('SPAWN_DEPTH_EXCEEDED', `session "${caller.sessionKey}" is at spawn depth ${caller.depth}; a child would be at depth ${depth}, deeper than tools.subagents.maxSpawnDepth (${caller.maxSpawnDepth})`);
    }
    const running = turns.childrenOf(caller.runId).length;
    if (running >= MAX_RUNNING_CHILDREN) {
      throw new TurnError('TOO_MANY_CHILDREN', `session "${caller.sessionKey}" already has ${running} subagents running (at most ${MAX_RUNNING_CHILDREN} at once); wait for them with sessions_yield`);
    }
    const sessionKey = `agent:${foldId(caller.agentId)}:subagent:${randomUUID()}`;
    return turns.start({
      kind: 'subagent', agentId: caller.agentId, sessionKey, trigger: 'subagent', message: params.message, subagentDepth: depth,
      inheritedAllowlist: caller.tools, parentRunId: caller.runId, parentSessionKey: caller.sessionKey, label: params.label,
    });
  }

  function send(caller: CallerRun, params: ReturnType<typeof TurnStartParams.parse>): StartedTurn {
    const target = params.sessionKey?.trim();
    if (!target) throw new TurnError('INVALID_REQUEST', 'sessions_send needs the target sessionKey');
    const known = sessions.get(target);
    const agentId = known?.agentId ?? /^agent:([^:]+):/.exec(target)?.[1];
    if (!agentId) throw new TurnError('SESSION_NOT_VISIBLE', `session "${target}" is unknown and does not name its agent (agent:<id>:...)`);
    assertAgentToAgent(config.tools?.agentToAgent, caller.agentId, agentId);
    deps.agentKnown(agentId);
    // The target runs in its own session, capped by the sender's tools: a message never carries
    // more power than the session that sent it (a group session cannot reach main's tools this way).
    return turns.start({
      kind: 'send', agentId, sessionKey: target, trigger: 'user', message: params.message, subagentDepth: known?.depth ?? 0, inheritedAllowlist: caller.tools,
      source: { agentId: caller.agentId, sessionKey: caller.sessionKey }, parentSessionKey: caller.sessionKey, label: params.label,
    });
  }

  function cron(params: ReturnType<typeof TurnStartParams.parse>): StartedTurn {
    const { agentId, jobId } = params;
    if (!agentId || !jobId) throw new TurnError('INVALID_REQUEST', 'a cron turn needs agentId and jobId');
    // The creator cap always stores concrete names: an uncapped or wildcard job is not one it made.
    if (!params.toolsAllow || params.toolsAllow.includes('*')) throw new TurnError('INVALID_REQUEST', `cron job "${jobId}" has no finite toolsAllow cap; refusing to run it uncapped`);
    const resolved = deps.agentKnown(agentId);
    const sessionKey = params.sessionKey?.trim() || `agent:${foldId(resolved)}:cron:${jobId}`;
    if (!sessionBelongsTo(sessionKey, resolved)) throw new TurnError('SESSION_NOT_VISIBLE', `cron job "${jobId}" names session "${sessionKey}", which is not agent "${resolved}"'s`);
    const granted = params.toolsAllow;
    if (granted.length > 0) {
      const now = new Set(deps.probeTools({ agentId: resolved, sessionKey, trigger: 'cron', jobId, toolsAllow: granted }));
      if (now.size === 0) {
        throw new TurnError('JOB_TOOLS_REMOVED', `cron job "${jobId}" of agent "${resolved}" was granted [${granted.join(', ')}] by its creator, and none of them is available to the agent any more (removed by config or a plugin gone); not running it. Re-create the job from a run that holds the tools it needs, or update its toolsAllow.`);
      }
    }
    return turns.start({ kind: 'cron', agentId: resolved, sessionKey, trigger: 'cron', jobId, message: params.message, subagentDepth: 0, toolsAllow: params.toolsAllow, label: params.label ?? `cron ${jobId}` });
  }

  async function query(caller: CallerRun, params: ReturnType<typeof SessionQueryParams.parse>): Promise<Record<string, unknown>> {
    if (params.op === 'list') return { sessions: sessions.listFor(caller.agentId, params.limit).map(sessionView) };
    if (params.op === 'yield') {
      const spawned = turns.spawnedBy(caller.runId);
      const results = await Promise.all(
        spawned.map(async (turn) => {
          const outcome = await settleWithin(turn.done, params.waitMs);
          return { sessionKey: turn.sessionKey, taskId: turn.taskId, state: outcome?.state ?? 'running', reply: outcome?.reply, error: outcome?.error };
        }),
      );
      return { children: results };
    }
    const key = params.sessionKey?.trim() || caller.sessionKey;
    const entry = sessions.get(key);
    if (!sessionBelongsTo(key, caller.agentId) && foldId(entry?.agentId) !== foldId(caller.agentId)) {
      throw new TurnError('SESSION_NOT_VISIBLE', `session "${key}" belongs to another agent; agent "${caller.agentId}" may read only its own sessions`);
    }
    if (params.op === 'history') return { sessionKey: key, messages: entry ? entry.history.slice(-params.limit) : [] };
    const tasks = await ledger.query({ agentId: caller.agentId, parentSessionKey: key, states: ['queued', 'running'], limit: 50 });
    return { sessionKey: key, agentId: caller.agentId, trigger: key === caller.sessionKey ? caller.trigger : entry?.kind, depth: entry?.depth ?? caller.depth, running: entry?.running ?? 0, messages: entry?.history.length ?? 0, activeTasks: tasks.length };
  }

  return {
    async request(pluginId, method, raw) {
      if (method === 'run/describe') {
        const { memoryWritePath: _m, ...info } = calls.runOf(pluginId, (raw as { callToken: string }).callToken);
        return info satisfies RunInfo;
      }
      if (method === 'turns/start') {
        const params = TurnStartParams.parse(raw);
        assertDesignated(host, pluginId, params.kind);
        const turn = params.kind === 'cron' ? cron(params) : params.kind === 'subagent' ? spawn(calls.runOf(pluginId, params.callToken), params) : send(calls.runOf(pluginId, params.callToken), params);
        return startResult(turn, params.waitMs);
      }
      if (method === 'sessions/query') {
        const params = SessionQueryParams.parse(raw);
        assertDesignated(host, pluginId, 'sessions');
        return query(calls.runOf(pluginId, params.callToken), params);
      }
      throw new TurnError('INVALID_REQUEST', `unknown method ${method}`);
    },
    notify(pluginId, method, raw) {
      if (method === 'tasks/cancelRequested' && pluginId === ledger.ledgerPlugin()) {
        void deps.stopWork((raw as { id: string }).id, 'cancel requested through the tasks ledger');
      } else if (method === 'tasks/report') {
        const report = raw as { localId: string; kind: string; state: TaskState; title: string; progress?: string; sessionKey?: string; error?: string };
        if (!reported.admit(pluginId, report.localId, report.state)) {
          if (!warnedFull.has(pluginId)) deps.warn?.(`tasks: plugin "${pluginId}" reported task "${report.localId}" while ${MAX_OPEN_REPORTED_TASKS} of its tasks are unfinished; new ones are not recorded until some end`);
          warnedFull.add(pluginId);
          return;
        }
        warnedFull.delete(pluginId);
        // The agent and session come from the kernel's record of the session, never from the plugin's word.
        const agentId = deps.agentOfSession(pluginId, report.sessionKey);
        const sessionKey = agentId === undefined ? undefined : report.sessionKey;
        void ledger.record({ id: `${pluginId}:${report.localId}`, kind: report.kind, state: report.state, agentId: agentId ?? '', sessionKey, ownerPlugin: pluginId, title: report.title, progress: report.progress, error: report.error });
      }
    },
  };
}
