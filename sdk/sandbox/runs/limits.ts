/** How many runs a backend keeps, per session and in total. Defaults here and only here. */
export interface RunLimits {
  /** Runs running at once in one session. */
  maxRunningPerSession: number;
  /** Runs running at once in the whole backend, across sessions. */
  maxRunningTotal: number;
  /** Finished runs a session keeps for poll and log; its oldest are forgotten first. */
  maxFinishedPerSession: number;
  /** Finished runs kept in the whole backend; past it, the session holding the most loses its oldest. */
  maxFinishedTotal: number;
  /** A finished run is forgotten this long after it ended. */
  finishedTtlMs: number;
  /** How long `kill` waits for the process group to be confirmed dead. */
  killConfirmMs: number;
}

export const DEFAULT_RUN_LIMITS: Readonly<RunLimits> = Object.freeze({
  maxRunningPerSession: 16,
  maxRunningTotal: 64,
  maxFinishedPerSession: 64,
  maxFinishedTotal: 128,
  finishedTtlMs: 6 * 60 * 60 * 1000,
  killConfirmMs: 15_000,
});
