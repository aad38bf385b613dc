/**
 * A job's schedule: once at a time (`at`), at a fixed interval (`every`), or by a cron
 * expression (`cron`, UTC). Validated at creation: a schedule that never fires, or that would
 * fire more often than the refire gap allows, is refused with the job named.
 */
import * as z from 'zod';
import { MIN_REFIRE_GAP_MS } from './constants.js';
import { CronSyntaxError, nextCronTime, parseCronExpression, type CronFields } from './cron-expression.js';

export const ScheduleInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('at'), at: z.union([z.string().min(1).max(64), z.number().int()]).describe('When to run once: ISO 8601 time or ms since epoch.') }),
  z.object({ kind: z.literal('every'), everyMs: z.number().int().describe(`Interval in milliseconds (at least ${MIN_REFIRE_GAP_MS}).`) }),
  z.object({ kind: z.literal('cron'), expr: z.string().min(1).max(200).describe('Five-field cron expression, evaluated in UTC, e.g. "0 9 * * MON-FRI".') }),
]);
export type ScheduleInput = z.infer<typeof ScheduleInput>;

/** A schedule as stored: `at` resolved to ms. */
export type Schedule = { kind: 'at'; at: number } | { kind: 'every'; everyMs: number } | { kind: 'cron'; expr: string };

export type ScheduleErrorCode = 'SCHEDULE_INVALID' | 'SCHEDULE_NEVER_FIRES' | 'SCHEDULE_TOO_FREQUENT';

export class ScheduleError extends Error {
  override readonly name = 'ScheduleError';
  constructor(
    readonly code: ScheduleErrorCode,
    message: string,
  ) {
    super(message);
  }
}

const cronCache = new Map<string, CronFields>();
function cronFields(expr: string): CronFields {
  let fields = cronCache.get(expr);
  if (!fields) {
    fields = parseCronExpression(expr);
    if (cronCache.size > 10_000) cronCache.clear();
    cronCache.set(expr, fields);
  }
  return fields;
}

/** The first run strictly after `afterMs`, or undefined when the schedule has no more runs. */
export function nextRunAfter(schedule: Schedule, afterMs: number): number | undefined {
  if (schedule.kind === 'at') return schedule.at > afterMs ? schedule.at : undefined;
  if (schedule.kind === 'every') return afterMs + schedule.everyMs;
  return nextCronTime(cronFields(schedule.expr), afterMs);
}

/** Checks a schedule for job `job`; answers it as stored and its first run. */
export function validateSchedule(input: ScheduleInput, job: string, now: number): { schedule: Schedule; firstRun: number } {
  let schedule: Schedule;
  if (input.kind === 'at') {
    const at = typeof input.at === 'number' ? input.at : Date.parse(input.at);
    if (!Number.isFinite(at)) throw new ScheduleError('SCHEDULE_INVALID', `job "${job}": schedule.at "${input.at}" is not a time (use ISO 8601, e.g. 2030-01-01T09:00:00Z)`);
    if (at <= now) throw new ScheduleError('SCHEDULE_NEVER_FIRES', `job "${job}": schedule.at ${new Date(at).toISOString()} has already passed, so it would never fire`);
    schedule = { kind: 'at', at };
  } else if (input.kind === 'every') {
    if (input.everyMs < MIN_REFIRE_GAP_MS) {
      throw new ScheduleError('SCHEDULE_TOO_FREQUENT', `job "${job}": schedule.everyMs ${input.everyMs} fires more often than once every ${MIN_REFIRE_GAP_MS} ms, the fastest a job may run`);
    }
    schedule = { kind: 'every', everyMs: input.everyMs };
  } else {
    try {
      cronFields(input.expr);
    } catch (error) {
      if (error instanceof CronSyntaxError) throw new ScheduleError('SCHEDULE_INVALID', `job "${job}": schedule.expr ${error.message}`);
      throw error;
    }
    schedule = { kind: 'cron', expr: input.expr.trim() };
  }
  const firstRun = nextRunAfter(schedule, now);
  if (firstRun === undefined) throw new ScheduleError('SCHEDULE_NEVER_FIRES', `job "${job}": schedule "${input.kind === 'cron' ? input.expr : input.kind}" matches no time in the next years, so it would never fire`);
  return { schedule, firstRun };
}
