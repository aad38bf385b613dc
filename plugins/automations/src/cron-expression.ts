/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week), evaluated in UTC:
 * `*`, lists, ranges and steps (`*\/15`, `1-5`, `MON-FRI`, `JAN`). As in classic cron, when
 * both day fields are restricted a day matches either. The next fire time is found field by
 * field (never minute by minute), so scheduling thousands of jobs stays cheap; an expression
 * that matches no date in the search horizon (`0 0 31 2 *`) is refused as never firing.
 */

export interface CronFields {
  minute: ReadonlySet<number>;
  hour: ReadonlySet<number>;
  dayOfMonth: ReadonlySet<number>;
  month: ReadonlySet<number>;
  dayOfWeek: ReadonlySet<number>;
  domRestricted: boolean;
  dowRestricted: boolean;
}

/** An expression that cannot be parsed; `message` names the field and the text. */
export class CronSyntaxError extends Error {
  override readonly name = 'CronSyntaxError';
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const SPECS = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day-of-month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS, base: 1 },
  { name: 'day-of-week', min: 0, max: 7, names: DAYS, base: 0 },
] as const;

function value(text: string, spec: (typeof SPECS)[number]): number {
  const named = 'names' in spec ? (spec.names as readonly string[]).indexOf(text.toLowerCase()) : -1;
  const n = named >= 0 ? named + (spec as { base: number }).base : /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(n) || n < spec.min || n > spec.max) throw new CronSyntaxError(`${spec.name} field: "${text}" is not a value from ${spec.min} to ${spec.max}`);
  return n;
}

function parseField(text: string, spec: (typeof SPECS)[number]): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/') as [string, string | undefined];
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new CronSyntaxError(`${spec.name} field: step "${stepText}" must be a whole number of at least 1`);
    let [from, to] = [spec.min as number, spec.max as number];
    if (range !== '*') {
      const [a, b] = range.split('-') as [string, string | undefined];
      from = value(a, spec);
      to = b === undefined ? (stepText === undefined ? from : spec.max) : value(b, spec);
      if (to < from) throw new CronSyntaxError(`${spec.name} field: range "${range}" runs backwards`);
    }
    for (let n = from; n <= to; n += step) out.add(spec.name === 'day-of-week' && n === 7 ? 0 : n);
  }
  return out;
}

export function parseCronExpression(expr: string): CronFields {
  const parts = expr.trim().split(/\s+/);
  if (parts.length !== 5) throw new CronSyntaxError(`"${expr}" has ${parts.length} fields; a cron expression has 5 (minute hour day-of-month month day-of-week)`);
  const [minute, hour, dayOfMonth, month, dayOfWeek] = parts.map((part, i) => parseField(part, SPECS[i]!)) as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  return { minute, hour, dayOfMonth, month, dayOfWeek, domRestricted: parts[2] !== '*', dowRestricted: parts[4] !== '*' };
}

function dayMatches(fields: CronFields, date: Date): boolean {
  const dom = fields.dayOfMonth.has(date.getUTCDate());
  const dow = fields.dayOfWeek.has(date.getUTCDay());
  if (fields.domRestricted && fields.dowRestricted) return dom || dow;
  return dom && dow;
}

/** How far ahead a next fire time is searched before the expression counts as never firing. */
export const CRON_HORIZON_YEARS = 8;

/** The first fire time strictly after `afterMs` (ms since epoch), or undefined within the horizon. */
export function nextCronTime(fields: CronFields, afterMs: number): number | undefined {
  const date = new Date(Math.floor(afterMs / 60_000) * 60_000 + 60_000);
  const limit = date.getUTCFullYear() + CRON_HORIZON_YEARS;
  while (date.getUTCFullYear() <= limit) {
    if (!fields.month.has(date.getUTCMonth() + 1)) {
      date.setUTCMonth(date.getUTCMonth() + 1, 1);
      date.setUTCHours(0, 0, 0, 0);
    } else if (!dayMatches(fields, date)) {
      date.setUTCDate(date.getUTCDate() + 1);
      date.setUTCHours(0, 0, 0, 0);
    } else if (!fields.hour.has(date.getUTCHours())) {
      date.setUTCHours(date.getUTCHours() + 1, 0, 0, 0);
    } else if (!fields.minute.has(date.getUTCMinutes())) {
      date.setUTCMinutes(date.getUTCMinutes() + 1, 0, 0);
    } else {
      return date.getTime();
    }
  }
  return undefined;
}
