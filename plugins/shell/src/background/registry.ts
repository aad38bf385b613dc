import { randomBytes } from 'node:crypto';
import type { WorkspaceExecOptions, WorkspaceExecResult, WorkspaceService } from '../../../../protocol/index.js';
import { explainWorkspaceError } from '../../../../sdk/fs-bridge/index.js';

export type RunStatus = 'running' | 'completed' | 'failed' | 'killed';

/** One background run: a workspace exec the tool call did not wait for. */
export interface BackgroundRun {
  id: string;
  /** Runs are visible only to the session that started them. */
  sessionKey: string | undefined;
  command: string;
  cwd: string | undefined;
  startedAt: number;
  endedAt?: number;
  status: RunStatus;
  result?: WorkspaceExecResult;
  error?: { code: string; message: string };
  /** Settles (never rejects) when the run has ended. */
  done: Promise<void>;
  controller: AbortController;
}

export interface RegistryLimits {
  /** Concurrent runs per session. */
  maxRunning: number;
  /** Finished runs kept for poll/log; the oldest are forgotten first. */
  maxFinished: number;
}

export class TooManyRunsError extends Error {
  override readonly name = 'TooManyRunsError';
}

/**
 * Background runs of the shell plugin, kept in this plugin process. Each is a
 * `workspace.exec` with its own AbortController (not the call's signal), so it
 * outlives the tool call; `kill` aborts it, which makes the backend kill the
 * command's whole process group.
 */
export class BackgroundRegistry {
  readonly #runs = new Map<string, BackgroundRun>();
  readonly #limits: RegistryLimits;

  constructor(limits: Partial<RegistryLimits> = {}) {
    this.#limits = { maxRunning: 16, maxFinished: 64, ...limits };
  }

  start(workspace: WorkspaceService, command: string, options: WorkspaceExecOptions, sessionKey: string | undefined): BackgroundRun {
    const running = this.list(sessionKey).filter((r) => r.status === 'running').length;
    if (running >= this.#limits.maxRunning) throw new TooManyRunsError(`${running} background runs are already running in this session (limit ${this.#limits.maxRunning})`);
    const controller = new AbortController();
    const run: BackgroundRun = {
      id: `run_${randomBytes(4).toString('hex')}`,
      sessionKey,
      command,
      cwd: options.cwd,
      startedAt: Date.now(),
      status: 'running',
      controller,
      done: Promise.resolve(),
    };
    run.done = workspace.exec(command, options, controller.signal).then(
      (result) => {
        run.result = result;
        run.status = controller.signal.aborted ? 'killed' : result.exitCode === 0 ? 'completed' : 'failed';
      },
      (error: unknown) => {
        run.status = controller.signal.aborted ? 'killed' : 'failed';
        const why = explainWorkspaceError(error);
        if (!controller.signal.aborted) run.error = { code: why?.code ?? 'IO_ERROR', message: why?.message ?? String((error as Error)?.message ?? error) };
      },
    ).finally(() => {
      run.endedAt = Date.now();
      this.#forgetOldFinished();
    });
    this.#runs.set(run.id, run);
    return run;
  }

  get(id: string, sessionKey: string | undefined): BackgroundRun | undefined {
    const run = this.#runs.get(id);
    return run !== undefined && run.sessionKey === sessionKey ? run : undefined;
  }

  list(sessionKey: string | undefined): BackgroundRun[] {
    return [...this.#runs.values()].filter((r) => r.sessionKey === sessionKey);
  }

  /** Abort a run and wait (up to `waitMs`) for the backend to confirm it ended. */
  async kill(run: BackgroundRun, waitMs = 5_000): Promise<void> {
    if (run.status !== 'running') return;
    run.controller.abort(new Error('killed by the process tool'));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([run.done, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
    run.status = 'killed';
  }

  /** On plugin shutdown: nothing started here may outlive the plugin. */
  async killAll(): Promise<void> {
    await Promise.all([...this.#runs.values()].map((run) => this.kill(run)));
  }

  #forgetOldFinished(): void {
    const finished = [...this.#runs.values()].filter((r) => r.status !== 'running');
    for (const run of finished.slice(0, Math.max(0, finished.length - this.#limits.maxFinished))) this.#runs.delete(run.id);
  }
}
