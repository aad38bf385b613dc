import type { ExecOutputSegment, WorkspaceExecOptions } from './workspace-types.js';

/**
 * Detached command runs (`exec` with `background: true`): the sandbox backend owns the
 * process and its output, so a run outlives the call that started it and a restart of the
 * tool plugin that asked for it. Runs belong to the session they were started in; a session
 * sees only its own.
 *
 * @since 1
 */
export type ExecRunStatus =
  /** Still running. */
  | 'running'
  /** Ended on its own (any exit code). */
  | 'exited'
  /** Killed on request (`kill`); its whole process group is gone. */
  | 'killed'
  /** Killed with its process group when its own timeout passed. */
  | 'timed_out'
  /** Could not start, or ended abnormally (the sandbox went away); `error` says why. */
  | 'failed';

/** What a backend knows about one run. @since 1 */
export interface ExecRunInfo {
  runId: string;
  /** The backend process that owns it; once that instance is gone, so is the run. */
  instance: string;
  command: string;
  /** The `cwd` option it was started with, if any. */
  cwd?: string;
  /** Wall clock, ms since the epoch. */
  startedAt: number;
  endedAt?: number;
  status: ExecRunStatus;
  /** Its own deadline; a run is bound by no call's deadline. */
  timeoutMs: number;
  exitCode: number | null;
  signal: string | null;
  /** Bytes the run has written so far, kept or dropped. */
  outputBytes: number;
  /** Output past the cap was dropped (the head and the tail are kept). */
  truncated: boolean;
  strayProcessesKilled?: boolean;
  error?: { code: string; message: string };
}

/** @since 1 */
export type ExecRunStartResult =
  | { started: true; run: ExecRunInfo }
  /** Refused by a limit: too many runs already running in the session, or in the whole backend. */
  | { started: false; limit: 'session' | 'backend'; max: number; message: string };

/** @since 1 */
export interface ExecRunReadOptions {
  /** Wait up to this long for the run to end before answering (0: answer at once). */
  waitMs?: number;
}

/** `run: null` when the session has no run with that id (never started, or forgotten). @since 1 */
export interface ExecRunReadResult {
  run: ExecRunInfo | null;
  /** The kept output so far, in arrival order. */
  output?: ExecOutputSegment[];
}

/** `killed: false` when the run had already ended (or is unknown): nothing was signalled. @since 1 */
export interface ExecRunKillResult {
  run: ExecRunInfo | null;
  killed: boolean;
}

/** The session's runs, and the backend instance answering (a run started under another one is lost). @since 1 */
export interface ExecRunListResult {
  runs: ExecRunInfo[];
  instance: string;
}

/** The backend's runs of one session. @since 1 */
export interface ExecRunService {
  start(command: string, options?: WorkspaceExecOptions, signal?: AbortSignal): Promise<ExecRunStartResult>;
  list(signal?: AbortSignal): Promise<ExecRunListResult>;
  read(runId: string, options?: ExecRunReadOptions, signal?: AbortSignal): Promise<ExecRunReadResult>;
  /** Resolves only after the run's whole process group is gone. */
  kill(runId: string, signal?: AbortSignal): Promise<ExecRunKillResult>;
}
