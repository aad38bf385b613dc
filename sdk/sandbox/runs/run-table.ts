import { randomBytes } from 'node:crypto';
import type { ExecRunInfo, ExecRunKillResult, ExecRunListResult, ExecRunReadOptions, ExecRunReadResult, ExecRunService, ExecRunStartResult } from '../../../protocol/v1/exec-run-types.js';
import type { WorkspaceExecOptions } from '../../../protocol/v1/workspace-types.js';
import type { TranscriptExecutor } from '../shell/exec-outcome.js';
import { OutputTranscript } from '../shell/transcript.js';
import { DEFAULT_RUN_LIMITS, type RunLimits } from './limits.js';

interface Run {
  session: string;
  info: ExecRunInfo;
  transcript: OutputTranscript;
  controller: AbortController;
  /** Settles (never rejects) when the run has ended. */
  done: Promise<void>;
}

/** The default output cap of a run whose start options name none. */
const DEFAULT_RUN_OUTPUT_BYTES = 512 * 1024;
const DEFAULT_RUN_TIMEOUT_MS = 30 * 60 * 1000;

function errorOf(error: unknown): { code: string; message: string } {
  const e = error as { code?: unknown; message?: unknown };
  return { code: typeof e?.code === 'string' ? e.code : 'IO_ERROR', message: typeof e?.message === 'string' ? e.message : String(error) };
}

/** Resolves after `ms`, or earlier when `signal` fires; never rejects. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The detached runs of one backend process, across its sessions: the backend owns each
 * command and its output, so a run outlives the call that started it and any restart of
 * the tool plugin. Limits keep one session from crowding out another: running runs are
 * capped per session and in total (a refusal, never an eviction), finished runs are kept
 * per session.
 */
export class RunTable {
  readonly #runs = new Map<string, Run>();
  readonly #limits: RunLimits;
  /** Who owns these runs: a tool plugin that sees another instance knows its runs were lost. */
  readonly instance = randomBytes(6).toString('hex');

  constructor(limits: Partial<RunLimits> = {}) {
    this.#limits = { ...DEFAULT_RUN_LIMITS, ...limits };
  }

  /** The runs of one session, started with `execute` (the session's current workspace). */
  service(session: string, execute: TranscriptExecutor): ExecRunService {
    return {
      start: async (command, options) => this.start(session, execute, command, options),
      list: async () => this.list(session),
      read: (runId, options, signal) => this.read(session, runId, options, signal),
      kill: (runId) => this.kill(session, runId),
    };
  }

  start(session: string, execute: TranscriptExecutor, command: string, options: WorkspaceExecOptions = {}): ExecRunStartResult {
    this.#forgetExpired();
    const running = [...this.#runs.values()].filter((r) => r.info.status === 'running');
    const mine = running.filter((r) => r.session === session).length;
    const { maxRunningPerSession: perSession, maxRunningTotal: total } = this.#limits;
    if (mine >= perSession) {
      return { started: false, limit: 'session', max: perSession, message: `${mine} background runs are already running in this session (at most ${perSession})` };
    }
    if (running.length >= total) {
      return { started: false, limit: 'backend', max: total, message: `${running.length} background runs are already running on this sandbox backend across all sessions (at most ${total})` };
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
    const run: Run = {
      session,
      info: {
        runId: `run_${randomBytes(6).toString('hex')}`,
        instance: this.instance,
        command,
        ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
        startedAt: Date.now(),
        status: 'running',
        timeoutMs,
        exitCode: null,
        signal: null,
        outputBytes: 0,
        truncated: false,
      },
      transcript: new OutputTranscript(options.maxOutputBytes ?? DEFAULT_RUN_OUTPUT_BYTES),
      controller: new AbortController(),
      done: Promise.resolve(),
    };
    run.done = this.#execute(run, execute, { ...options, timeoutMs });
    this.#runs.set(run.info.runId, run);
    return { started: true, run: this.#info(run) };
  }

  async #execute(run: Run, execute: TranscriptExecutor, options: WorkspaceExecOptions): Promise<void> {
    const { info, controller } = run;
    try {
      const outcome = await execute(info.command, options, controller.signal, run.transcript);
      Object.assign(info, {
        status: outcome.timedOut ? 'timed_out' : 'exited',
        exitCode: outcome.exitCode,
        signal: outcome.signal,
        ...(outcome.strayProcessesKilled ? { strayProcessesKilled: true } : {}),
      });
    } catch (error) {
      if (controller.signal.aborted) info.status = 'killed';
      else Object.assign(info, { status: 'failed', error: errorOf(error) });
    }
    run.transcript.end();
    info.endedAt = Date.now();
    this.#forgetOldFinished(run.session);
  }

  list(session: string): ExecRunListResult {
    this.#forgetExpired();
    return { runs: [...this.#runs.values()].filter((r) => r.session === session).map((r) => this.#info(r)), instance: this.instance };
  }

  async read(session: string, runId: string, options: ExecRunReadOptions = {}, signal?: AbortSignal): Promise<ExecRunReadResult> {
    const run = this.#get(session, runId);
    if (run === undefined) return { run: null };
    if (run.info.status === 'running' && (options.waitMs ?? 0) > 0) {
      const waited = new AbortController();
      const stop = () => waited.abort();
      signal?.addEventListener('abort', stop, { once: true });
      void run.done.then(stop);
      await pause(options.waitMs!, waited.signal);
      signal?.removeEventListener('abort', stop);
    }
    return { run: this.#info(run), output: run.transcript.snapshot().output };
  }

  /** Kills the run's process group; answers once the backend confirmed it (or says it could not). */
  async kill(session: string, runId: string): Promise<ExecRunKillResult> {
    const run = this.#get(session, runId);
    if (run === undefined) return { run: null, killed: false };
    if (run.info.status !== 'running') return { run: this.#info(run), killed: false };
    run.controller.abort(new Error('killed on request'));
    const ended = await Promise.race([run.done.then(() => true), pause(this.#limits.killConfirmMs).then(() => false)]);
    const info = this.#info(run);
    return { run: info, killed: ended && info.status === 'killed' };
  }

  #get(session: string, runId: string): Run | undefined {
    this.#forgetExpired();
    const run = this.#runs.get(runId);
    return run?.session === session ? run : undefined;
  }

  #info(run: Run): ExecRunInfo {
    return { ...run.info, outputBytes: run.transcript.bytes, truncated: run.transcript.truncated };
  }

  #finished(): Run[] {
    return [...this.#runs.values()].filter((r) => r.info.endedAt !== undefined);
  }

  #forgetExpired(): void {
    const horizon = Date.now() - this.#limits.finishedTtlMs;
    for (const run of this.#finished()) if (run.info.endedAt! < horizon) this.#runs.delete(run.info.runId);
  }

  /** Per session first; then, over the backend's total, the session holding the most finished runs gives up its oldest. */
  #forgetOldFinished(session: string): void {
    const mine = this.#finished().filter((r) => r.session === session);
    for (const run of mine.slice(0, Math.max(0, mine.length - this.#limits.maxFinishedPerSession))) this.#runs.delete(run.info.runId);
    let finished = this.#finished();
    while (finished.length > this.#limits.maxFinishedTotal) {
      const counts = new Map<string, number>();
      for (const r of finished) counts.set(r.session, (counts.get(r.session) ?? 0) + 1);
      const largest = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0];
      this.#runs.delete(finished.find((r) => r.session === largest)!.info.runId);
      finished = this.#finished();
    }
  }
}
