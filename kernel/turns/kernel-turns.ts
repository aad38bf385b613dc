/**
 * The turn machinery of one kernel, wired: the call registry tool calls register in, the
 * session directory, the tasks ledger client, the turn service and the plugin-facing
 * request handler. `kernel.ts` keeps one of these and exposes its public half.
 */
import type { ToolSet } from '../assembly/tool-set.js';
import type { PincerConfig } from '../config/schema.js';
import type { PluginHost } from '../host/index.js';
import { DEFAULT_MAX_SPAWN_DEPTH, type RunContext } from '../policy/index.js';
import { CallRegistry, type CallerRun } from './call-registry.js';
import { SessionDirectory } from './sessions.js';
import { TaskLedger } from './task-ledger.js';
import { createTurnRequestHandler } from './turn-requests.js';
import { TurnService, type StartedTurn } from './turn-service.js';
import type { TurnRunner } from './types.js';
import { TasksCancel, type TaskRecord, type TasksQueryParams } from '../../protocol/index.js';

/** A turn an embedding host starts itself (a user message, a memory flush). */
export interface HostTurnRequest {
  message: string;
  agentId?: string;
  sessionKey?: string;
  trigger?: RunContext['trigger'];
  memoryWritePath?: string;
  label?: string;
}

/** The tasks ledger as a host (and `pincer tasks`) sees it. */
export interface KernelTasks {
  list(filter?: TasksQueryParams): Promise<TaskRecord[]>;
  get(id: string): Promise<TaskRecord | undefined>;
  /** Asks a task to stop: the work stops here at once, or in the kernel that runs it. Undefined if unknown. */
  cancel(id: string): Promise<TaskRecord | undefined>;
}

export interface KernelTurnsDeps {
  config: PincerConfig;
  host: PluginHost;
  assemble(run: RunContext & { runId: string }): ToolSet;
  /** The agent of a session handle a plugin was called for. */
  agentOfSession(pluginId: string, handle: string | undefined): string | undefined;
  /** The tools a run with this context would hold now (no call, no spawn). */
  probeTools(run: RunContext): readonly string[];
  /** The agent id and main session a run context resolves to (throws for an unknown agent). */
  resolve(run: RunContext): { agentId: string; sessionKey: string };
  warn(message: string): void;
}

export function createKernelTurns(deps: KernelTurnsDeps) {
  const calls = new CallRegistry();
  const sessions = new SessionDirectory();
  const ledger = new TaskLedger(deps.host, deps.warn);
  const turns = new TurnService({ assemble: deps.assemble, sessions, ledger, warn: deps.warn });
  const maxSpawnDepth = deps.config.tools?.subagents?.maxSpawnDepth ?? DEFAULT_MAX_SPAWN_DEPTH;

  /** A turn of this kernel stops at once; a plugin's own task (a background command) is asked to stop. */
  async function stopWork(id: string, reason: string): Promise<void> {
    if (turns.cancel(id, reason)) return;
    const task = (await ledger.query({ id, limit: 1 }).catch(() => []))[0];
    const owner = task?.ownerPlugin;
    if (!owner || !id.startsWith(`${owner}:`) || ['succeeded', 'failed', 'cancelled'].includes(task.state)) return;
    await deps.host.requestPlugin(owner, TasksCancel, { localId: id.slice(owner.length + 1) }).catch((error: unknown) => deps.warn(`tasks: plugin "${owner}" could not stop task ${id}: ${error instanceof Error ? error.message : String(error)}`));
  }

  deps.host.setHostServices(
    createTurnRequestHandler({
      config: deps.config, host: deps.host, calls, turns, sessions, ledger, stopWork,
      agentKnown: (agentId) => deps.resolve({ agentId }).agentId, probeTools: deps.probeTools, agentOfSession: deps.agentOfSession, warn: deps.warn,
    }),
  );

  const tasks: KernelTasks = {
    list: (filter = {}) => ledger.query(filter),
    get: async (id) => (await ledger.query({ id, limit: 1 }))[0],
    async cancel(id) {
      const task = await ledger.requestCancel(id);
      await stopWork(id, 'cancel requested by the host');
      return task;
    },
  };

  return {
    tasks,
    registerTurnRunner: (runner: TurnRunner): (() => void) => turns.setRunner(runner),
    /** What a tool call of a run registers, so the run's plugins can ask for turns on its behalf. */
    callerRun(run: Omit<CallerRun, 'maxSpawnDepth'>): (pluginId: string) => { token: string; end: () => void } {
      const caller: CallerRun = { ...run, maxSpawnDepth };
      return (pluginId) => calls.begin(pluginId, caller);
    },
    startTurn(request: HostTurnRequest): StartedTurn {
      const { agentId, sessionKey } = deps.resolve({ agentId: request.agentId, sessionKey: request.sessionKey });
      const trigger = request.trigger ?? 'user';
      return turns.start({ kind: trigger === 'memory' ? 'memory' : 'user', agentId, sessionKey, trigger, message: request.message, subagentDepth: 0, memoryWritePath: request.memoryWritePath, label: request.label });
    },
    stop: () => turns.stop(),
  };
}

export type KernelTurns = ReturnType<typeof createKernelTurns>;
