/**
 * One row per measure, target beside figure: what `npm run bench` prints as one table, and
 * what `bench/spread.ts` aggregates over several runs.
 */
export interface Target {
  op: '<=' | '>=';
  value: number;
}

export interface BenchRow {
  suite: string;
  measure: string;
  /** The compared value: a ratio (`×`) unless `unit` says otherwise. */
  value: number | undefined;
  unit?: '×' | 'µs' | 'ms' | 'calls/s';
  /** What the value was computed from, e.g. "312 µs vs 280 µs". */
  figure: string;
  target?: Target;
  /** Why there is no value (a missing service or reference), or a caveat. */
  note?: string;
}

export function meets(row: Pick<BenchRow, 'value' | 'target'>): boolean | undefined {
  if (!row.target || row.value === undefined || Number.isNaN(row.value)) return undefined;
  return row.target.op === '<=' ? row.value <= row.target.value : row.value >= row.target.value;
}

export function formatValue(value: number | undefined, unit: BenchRow['unit'] = '×'): string {
  if (value === undefined || Number.isNaN(value)) return '—';
  return unit === '×' ? `${value.toFixed(2)}×` : `${value < 10 ? value.toFixed(2) : Math.round(value)} ${unit}`;
}

export function formatTarget(row: Pick<BenchRow, 'target' | 'unit'>): string {
  return row.target ? `${row.target.op === '<=' ? '≤' : '≥'} ${formatValue(row.target.value, row.unit)}` : '';
}

/** Microseconds for a figure: "312 µs", "1.8 ms". */
export function us(value: number): string {
  if (Number.isNaN(value)) return 'n/a';
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} ms`;
  return value >= 100 ? `${Math.round(value)} µs` : `${value.toFixed(1)} µs`;
}

export function printRows(rows: readonly BenchRow[]): void {
  console.table(
    rows.map((row) => {
      const met = meets(row);
      return {
        suite: row.suite,
        measure: row.measure,
        value: row.value === undefined ? (row.note ?? '—') : formatValue(row.value, row.unit),
        target: formatTarget(row),
        met: met === undefined ? '' : met ? 'yes' : 'NO',
        figure: row.figure,
      };
    }),
  );
}

export interface SuiteReport {
  rows: BenchRow[];
  /** Raw medians and anything else worth keeping in the JSON output. */
  detail?: unknown;
}
