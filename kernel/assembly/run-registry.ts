/**
 * Runs by id (24.2): the loop history and allow-always approvals of a run live here, not in a
 * tool set, so a host that assembles a tool set per turn, or `pincer serve` rebuilding on a
 * tool-list change, keeps them. A run context without a `runId` belongs to its session's run.
 * Bounded: the least recently used run is forgotten first.
 */
import { createGateRunState, type GateRunState } from '../gate/index.js';
import type { ToolLoopDetectionConfig } from '../loop/index.js';
import { KernelUsageError } from './usage-error.js';

interface RunEntry {
  agentId: string;
  sessionKey: string;
  state: GateRunState | undefined;
}

export const RUN_REGISTRY_LIMIT = 1024;

export class RunRegistry {
  readonly #runs = new Map<string, RunEntry>();

  constructor(
    private readonly loopDetection: ToolLoopDetectionConfig | undefined,
    private readonly limit = RUN_REGISTRY_LIMIT,
  ) {}

  /**
   * The run of a context that names none: its session's. Then the documented pattern (one
   * assembly per turn, same session) keeps its loop history without the host doing anything.
   */
  static sessionRunId(agentId: string, sessionKey: string): string {
    return `session:${agentId}:${sessionKey}`;
  }

  /** Bind a run id to its agent and session; the same id for another one is misuse. */
  claim(runId: string, agentId: string, sessionKey: string): void {
    const entry = this.#runs.get(runId);
    if (!entry) return this.#remember(runId, { agentId, sessionKey, state: undefined });
    if (entry.agentId !== agentId || entry.sessionKey !== sessionKey) {
      throw new KernelUsageError('RUN_CONFLICT', `run "${runId}" belongs to agent "${entry.agentId}", session "${entry.sessionKey}"; a run id names one run (got agent "${agentId}", session "${sessionKey}")`);
    }
    this.#touch(runId, entry);
  }

  /** The run's state, created on its first call (a run that never calls costs nothing). */
  stateOf(runId: string, agentId: string, sessionKey: string): GateRunState {
    this.claim(runId, agentId, sessionKey);
    const entry = this.#runs.get(runId)!;
    entry.state ??= createGateRunState(this.loopDetection);
    return entry.state;
  }

  clear(): void {
    this.#runs.clear();
  }

  #touch(runId: string, entry: RunEntry): void {
    this.#runs.delete(runId);
    this.#runs.set(runId, entry);
  }

  #remember(runId: string, entry: RunEntry): void {
    if (this.#runs.size >= this.limit) this.#runs.delete(this.#runs.keys().next().value as string);
    this.#runs.set(runId, entry);
  }
}
