/**
 * A thin tinybench wrapper: run tasks side by side and report medians in microseconds.
 * Figures are compared as ratios within one run, since these machines are noisy.
 */
import { Bench } from 'tinybench';

export interface Measured {
  name: string;
  medianUs: number;
  samples: number;
}

export async function measure(tasks: Record<string, () => unknown>, options: { timeMs?: number } = {}): Promise<Record<string, Measured>> {
  const bench = new Bench({ time: options.timeMs ?? 400, warmup: true });
  for (const [name, fn] of Object.entries(tasks)) bench.add(name, fn);
  await bench.run();
  const out: Record<string, Measured> = {};
  for (const task of bench.tasks) {
    const result = task.result as { latency?: { p50?: number; samplesCount?: number } } | undefined;
    out[task.name] = { name: task.name, medianUs: (result?.latency?.p50 ?? Number.NaN) * 1000, samples: result?.latency?.samplesCount ?? 0 };
  }
  return out;
}

export function ratio(a: Measured, b: Measured): number {
  return Math.round((a.medianUs / b.medianUs) * 100) / 100;
}

export function printTable(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  console.table(rows);
}
