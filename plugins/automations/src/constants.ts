/** The scheduler's timer constants (the reference's values), and Pincer's own job cap. */

/** A past-due wake is delayed this much, and no job fires twice within it. */
export const MIN_REFIRE_GAP_MS = 2_000;
/** The timer wakes at least this often, even with nothing due (a maintenance recheck). */
export const MAX_TIMER_DELAY_MS = 60_000;
/** While a tick runs, a watchdog rechecks for other due jobs this often. */
export const TICK_WATCHDOG_MS = 60_000;
/** After a restart, missed jobs start this far apart... */
export const MISSED_JOB_STAGGER_MS = 5_000;
/** ...and at most this many of them are caught up; the rest wait for their next slot (recorded, not dropped). */
export const MAX_MISSED_JOBS_PER_RESTART = 5;

/** Jobs one agent may have (plugin setting `maxJobsPerAgent`): a model cannot schedule without bound. */
export const DEFAULT_MAX_JOBS_PER_AGENT = 100;
