/**
 * Starts, tracks and cancels agent turns. Each turn is a task in the ledger (queued →
 * running → succeeded | failed | cancelled), runs in its own run (own run id, own policy
 * context) through the host's TurnRunner, and is cancelled through its AbortSignal, which
 * reaches the tool calls in flight (and, through them, the processes they started).
 * Cancelling a turn cancels the subagents it spawned.
 */
import { randomUUID } from 'node:crypto';
import type { ToolSet } from '../assembly/tool-set.js';
import type { RunContext } from '../policy/index.js';
import { TurnError } from './errors.js';
import type { SessionDirectory } from './sessions.js';
import type { TaskLedger } from './task-ledger.js';
import type { TurnOutcome, TurnRequest, TurnRunner } from './types.js';

export interface TurnSpec extends Omit<TurnRequest, 'runId'> {
  /** Ledger kind: `subagent`, `send`, `cron`, `memory`, `user`. */
  kind: string;
  parentRunId?: string;
  parentSessionKey?: string;
  label?: string;
}

export interface StartedTurn {
  runId: string;
  taskId: string;
  sessionKey: string;
  parentRunId?: string;
  done: Promise<TurnOutcome>;
}

interface Running extends StartedTurn {
  controller: AbortController;
}

export interface TurnServiceDeps {
  assemble(run: RunContext & { runId: string; memoryWritePath?: string }): ToolSet;
  sessions: SessionDirectory;
  ledger: TaskLedger;
  warn(message: string): void;
}

const SPAWNED_PER_RUN = 100;
const SPAWNED_RUNS = 1_000;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error)).slice(0, 4_000);

export class TurnService {
  #runner: TurnRunner | undefined;
  readonly #running = new Map<string, Running>();
  /** parent run → the turns it spawned (finished ones too, for sessions_yield); bounded. */
  readonly #spawned = new Map<string, StartedTurn[]>();
  #stopping = false;

  constructor(private readonly deps: TurnServiceDeps) {}

  setRunner(runner: TurnRunner): () => void {
    if (!runner || typeof runner.runTurn !== 'function') throw new TypeError('registerTurnRunner: the runner must have a runTurn(request, context) method');
    this.#runner = runner;
    return () => {
      if (this.#runner === runner) this.#runner = undefined;
    };
  }

  get hasRunner(): boolean {
    return this.#runner !== undefined;
  }

  start(spec: TurnSpec): StartedTurn {
    const runner = this.#runner;
    if (this.#stopping) throw new TurnError('KERNEL_STOPPING', 'the kernel is stopping; no new turn starts');
    if (!runner) throw new TurnError('NO_TURN_RUNNER', `no turn runner is registered, so no turn can run in session "${spec.sessionKey}" (the embedding host calls kernel.registerTurnRunner)`);
    const runId = `turn:${randomUUID()}`;
    const taskId = `task_${randomUUID().replaceAll('-', '').slice(0, 20)}`;
    const { kind, parentRunId, parentSessionKey, label, ...rest } = spec;
    const request: TurnRequest = { ...rest, runId };
    const session = this.deps.sessions.touch({ sessionKey: spec.sessionKey, agentId: spec.agentId, kind, depth: spec.subagentDepth, parentSessionKey, label });
    this.deps.sessions.append(spec.sessionKey, { role: 'user', text: spec.message, at: Date.now(), runId, source: spec.source });
    const title = (label ?? spec.message).replace(/\s+/g, ' ').slice(0, 200);
    const base = { id: taskId, kind, agentId: spec.agentId, sessionKey: spec.sessionKey, parentSessionKey, jobId: spec.jobId, title };
    void this.deps.ledger.record({ ...base, state: 'queued' });
    const controller = new AbortController();
    session.running += 1;
    const done = this.#run(runner, request, controller.signal, base).finally(() => {
      session.running -= 1;
      this.#running.delete(taskId);
    });
    const started: Running = { runId, taskId, sessionKey: spec.sessionKey, parentRunId, done, controller };
    this.#running.set(taskId, started);
    const handle = { runId, taskId, sessionKey: spec.sessionKey, parentRunId, done };
    if (parentRunId) this.#rememberChild(parentRunId, handle);
    return handle;
  }

  async #run(runner: TurnRunner, request: TurnRequest, signal: AbortSignal, base: { id: string; kind: string; agentId: string; title: string }): Promise<TurnOutcome> {
    const outcome = (state: TurnOutcome['state'], extra: { reply?: string; error?: string }): TurnOutcome => ({ runId: request.runId, sessionKey: request.sessionKey, taskId: base.id, state, ...extra });
    await Promise.resolve(); // the caller gets its handle before the runner starts
    void this.deps.ledger.record({ ...base, state: 'running' });
    let result: TurnOutcome;
    try {
      const { runId, agentId, sessionKey, trigger, jobId, subagentDepth, inheritedAllowlist, toolsAllow, memoryWritePath } = request;
      const context = {
        signal,
        tools: () => this.deps.assemble({ runId, agentId, sessionKey, trigger, jobId, subagentDepth, inheritedAllowlist, toolsAllow, memoryWritePath }),
        progress: (message: string) => void this.deps.ledger.record({ ...base, state: 'running', progress: String(message).slice(0, 500) }),
      };
      const reply = (await runner.runTurn(request, context))?.reply;
      result = signal.aborted ? outcome('cancelled', { error: errorText(signal.reason) }) : outcome('succeeded', { reply: typeof reply === 'string' ? reply : undefined });
    } catch (error) {
      result = signal.aborted ? outcome('cancelled', { error: errorText(signal.reason) }) : outcome('failed', { error: errorText(error) });
    }
    if (result.reply !== undefined) this.deps.sessions.append(request.sessionKey, { role: 'assistant', text: result.reply, at: Date.now(), runId: request.runId });
    await this.deps.ledger.record({ ...base, state: result.state, result: result.reply?.slice(0, 16_000), error: result.error });
    return result;
  }

  /** Cancels a running turn and the subagents it spawned; false when it is not running here. */
  cancel(taskId: string, reason = 'cancelled'): boolean {
    const turn = this.#running.get(taskId);
    if (!turn) return false;
    turn.controller.abort(new Error(reason));
    for (const child of this.childrenOf(turn.runId)) this.cancel(child.taskId, `its parent turn was cancelled (${reason})`);
    return true;
  }

  #rememberChild(parentRunId: string, child: StartedTurn): void {
    const list = this.#spawned.get(parentRunId) ?? [];
    this.#spawned.delete(parentRunId); // re-inserted last: the map's order is recency
    this.#spawned.set(parentRunId, [...list, child].slice(-SPAWNED_PER_RUN));
    if (this.#spawned.size > SPAWNED_RUNS) this.#spawned.delete(this.#spawned.keys().next().value as string);
  }

  /** Turns still running that `runId` spawned. */
  childrenOf(runId: string): StartedTurn[] {
    return [...this.#running.values()].filter((turn) => turn.parentRunId === runId);
  }

  /** Every turn `runId` spawned (running or finished), oldest first. */
  spawnedBy(runId: string): readonly StartedTurn[] {
    return this.#spawned.get(runId) ?? [];
  }

  /** Cancels every turn and waits for them to settle. */
  async stop(): Promise<void> {
    this.#stopping = true;
    const all = [...this.#running.values()];
    for (const turn of all) turn.controller.abort(new Error('the kernel is stopping'));
    await Promise.allSettled(all.map((turn) => turn.done));
    await this.deps.ledger.flush();
  }
}
