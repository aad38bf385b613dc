import { describe, expect, it } from 'vitest';
import { nextCronTime, parseCronExpression } from '../../plugins/automations/src/cron-expression.js';
import { ScheduleError, validateSchedule } from '../../plugins/automations/src/schedule.js';
import { timerDelay } from '../../plugins/automations/src/timer-delay.js';
import { capJobToolsAllow } from '../../plugins/automations/src/creator-cap.js';
import { SELF_SCOPE_REFUSAL, selfScopeOf, selfScopeRefusal } from '../../plugins/automations/src/self-scope.js';

const T0 = Date.UTC(2030, 0, 1, 0, 0, 0); // a Tuesday
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function scheduleError(fn: () => unknown): ScheduleError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ScheduleError) return error;
    throw error;
  }
  throw new Error('expected a ScheduleError');
}

describe('cron expressions (UTC)', () => {
  it('finds the next time field by field', () => {
    expect(iso(nextCronTime(parseCronExpression('*/15 * * * *'), T0))).toBe('2030-01-01T00:15:00.000Z');
    expect(iso(nextCronTime(parseCronExpression('0 9 * * MON-FRI'), T0))).toBe('2030-01-01T09:00:00.000Z');
    expect(iso(nextCronTime(parseCronExpression('30 8 1 FEB,JUL *'), T0))).toBe('2030-02-01T08:30:00.000Z');
    expect(iso(nextCronTime(parseCronExpression('0 0 29 2 *'), T0))).toBe('2032-02-29T00:00:00.000Z');
    // Both day fields restricted: either matches (the 13th, or any Friday).
    expect(iso(nextCronTime(parseCronExpression('0 12 13 * 5'), T0))).toBe('2030-01-04T12:00:00.000Z');
    expect(iso(nextCronTime(parseCronExpression('0 0 * * 7'), T0))).toBe('2030-01-06T00:00:00.000Z'); // 7 is Sunday
  });
});

describe('schedule validation names the job', () => {
  it('refuses an expression that never fires', () => {
    const error = scheduleError(() => validateSchedule({ kind: 'cron', expr: '0 0 31 2 *' }, 'february-31', T0));
    expect(error.code).toBe('SCHEDULE_NEVER_FIRES');
    expect(error.message).toContain('"february-31"');
  });

  it('refuses an interval faster than the refire gap (every millisecond)', () => {
    const error = scheduleError(() => validateSchedule({ kind: 'every', everyMs: 1 }, 'spinner', T0));
    expect(error.code).toBe('SCHEDULE_TOO_FREQUENT');
    expect(error.message).toContain('"spinner"');
  });

  it('refuses a one-shot time already past, and bad syntax with the field named', () => {
    expect(scheduleError(() => validateSchedule({ kind: 'at', at: '2020-01-01T00:00:00Z' }, 'late', T0)).code).toBe('SCHEDULE_NEVER_FIRES');
    const syntax = scheduleError(() => validateSchedule({ kind: 'cron', expr: '61 * * * *' }, 'bad', T0));
    expect(syntax.code).toBe('SCHEDULE_INVALID');
    expect(syntax.message).toMatch(/job "bad".*minute field: "61"/);
    expect(scheduleError(() => validateSchedule({ kind: 'cron', expr: '* * * *' }, 'short', T0)).message).toContain('has 4 fields');
  });

  it('accepts a valid schedule with its first run', () => {
    expect(validateSchedule({ kind: 'every', everyMs: 2_000 }, 'ok', T0).firstRun).toBe(T0 + 2_000);
  });
});

describe('timer delay guards', () => {
  it('floors a past-due wake (delay 0) to the 2 s refire gap instead of spinning', () => {
    expect(timerDelay(T0 - 5_000, T0, true)).toBe(2_000);
    expect(timerDelay(T0, T0, true)).toBe(2_000);
  });
  it('wakes at least once a minute, and arms a maintenance recheck when enabled jobs have no due time', () => {
    expect(timerDelay(T0 + 3_600_000, T0, true)).toBe(60_000);
    expect(timerDelay(T0 + 1_500, T0, true)).toBe(1_500);
    expect(timerDelay(undefined, T0, true)).toBe(60_000);
    expect(timerDelay(undefined, T0, false)).toBeUndefined();
  });
});

describe('the creator cap (at creation)', () => {
  const creator = ['read', 'write', 'exec', 'automations', 'web_fetch'];
  it('gives a job asking for everything (`*` or nothing) exactly its creator\'s tools', () => {
    expect(capJobToolsAllow(undefined, creator)).toEqual({ toolsAllow: creator, toolsAllowIsDefault: true, dropped: [] });
    expect(capJobToolsAllow(['*'], creator).toolsAllow).toEqual(creator);
  });
  it('gives no tools for an empty list or a creator holding none', () => {
    expect(capJobToolsAllow([], creator).toolsAllow).toEqual([]);
    expect(capJobToolsAllow(['read'], []).toolsAllow).toEqual([]);
    expect(capJobToolsAllow(['*'], []).toolsAllow).toEqual([]);
  });
  it('keeps only the creator\'s tools the list admits, matching groups, globs and aliases, and says what it dropped', () => {
    expect(capJobToolsAllow(['bash', 'cron', 'browser'], creator)).toEqual({ toolsAllow: ['exec', 'automations'], toolsAllowIsDefault: false, dropped: ['browser'] });
    expect(capJobToolsAllow(['group:fs', 'web_*'], creator).toolsAllow).toEqual(['read', 'write', 'web_fetch']);
    expect(capJobToolsAllow(['READ'], ['read']).toolsAllow).toEqual(['read']);
  });
  it('matches a plugin id and group:plugins against the creator\'s tools from plugins, never past them', () => {
    const tools = [...creator, 'gh_issue', 'gh_pr', 'jira_get'];
    const byPlugin = { github: ['gh_issue', 'gh_pr'], jira: ['jira_get'] };
    expect(capJobToolsAllow(['github', 'read'], tools, byPlugin)).toEqual({ toolsAllow: ['read', 'gh_issue', 'gh_pr'], toolsAllowIsDefault: false, dropped: [] });
    expect(capJobToolsAllow(['group:plugins'], tools, byPlugin).toolsAllow).toEqual(['gh_issue', 'gh_pr', 'jira_get']);
    expect(capJobToolsAllow(['group:plugins'], creator, {}).toolsAllow).toEqual([]); // no plugin tools: matches nothing
    expect(capJobToolsAllow(['gitlab'], tools, byPlugin)).toMatchObject({ toolsAllow: [], dropped: ['gitlab'] });
  });
});

describe('self-scope inside a cron run', () => {
  const scope = selfScopeOf({ trigger: 'cron', jobId: ' job_a ' });
  it('applies only to cron runs with a job id', () => {
    expect(scope).toBe('job_a');
    expect(selfScopeOf({ trigger: 'user', jobId: 'job_a' })).toBeUndefined();
    expect(selfScopeOf({ trigger: 'cron', jobId: '  ' })).toBeUndefined();
  });
  it('lets status and list through (filtered), and get/remove/runs only for the own job', () => {
    expect(selfScopeRefusal(scope, 'list', undefined)).toBeUndefined();
    expect(selfScopeRefusal(scope, 'status', 'job_b')).toBeUndefined();
    expect(selfScopeRefusal(scope, 'remove', 'job_a')).toBeUndefined();
    expect(selfScopeRefusal(scope, 'remove', 'job_b')).toBe(SELF_SCOPE_REFUSAL);
    expect(selfScopeRefusal(scope, 'get', undefined)).toBe(SELF_SCOPE_REFUSAL);
    expect(selfScopeRefusal(scope, 'add', undefined)).toBe('Automations tool is restricted to the current automation.');
    expect(selfScopeRefusal(scope, 'run', 'job_a')).toBe(SELF_SCOPE_REFUSAL);
  });
});
