/**
 * Side-by-side measurement on a noisy machine: tasks are run in alternating rounds (each round
 * a short tinybench run of one task, the order rotated every round), so drift in machine load
 * hits every task alike. A figure is the median of a task's round medians; a ratio is the median
 * of its per-round ratios, which cancels load that changes between rounds.
 */
import { Bench } from 'tinybench';

export interface Measured {
  name: string;
  /** Median of the round medians. */
  medianUs: number;
  samples: number;
  /** Median latency of each round, in round order. */
  roundsUs: number[];
}

export interface MeasureOptions {
  /** Time budget per task over all rounds (default 600 ms). */
  timeMs?: number;
  /** Alternating rounds (default 6). */
  rounds?: number;
  /** Iterations each task runs at least per round, whatever its time budget (default 8). */
  minIterations?: number;
  /**
   * Untimed calls of each task before the first round (default 0). A path through fresh plugin
   * processes gets about twice as cheap over its first ~3,000 calls (V8 tiering up and the heaps
   * reaching their working size, in every process on it), so a path of ~1 ms per call measured in a
   * few seconds is mostly that warm-up, and two paths through different processes warm up unevenly.
   */
  warmupCalls?: number;
}

/** Untimed calls per task that bring a path through fresh plugin processes to its steady state (see `warmupCalls`). */
export const WARMUP_CALLS = 4_000;

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** A task: a function timed per iteration, optionally with untimed clean-up after each. */
export type BenchTask = (() => unknown) | { run: () => unknown; afterEach: () => unknown };

async function oneRound(name: string, task: BenchTask, timeMs: number, iterations: number, warmup: boolean): Promise<{ p50Us: number; samples: number }> {
  const bench = new Bench({ time: timeMs, iterations, warmup, warmupIterations: Math.min(iterations, 16), warmupTime: Math.min(timeMs, 100), throws: true });
  if (typeof task === 'function') bench.add(name, task);
  else bench.add(name, task.run, { afterEach: async () => void (await task.afterEach()) });
  await bench.run();
  const result = bench.tasks[0]!.result as { latency?: { p50?: number; samplesCount?: number }; error?: Error } | undefined;
  if (result?.error) throw result.error;
  return { p50Us: (result?.latency?.p50 ?? Number.NaN) * 1000, samples: result?.latency?.samplesCount ?? 0 };
}

/** Runs every task in alternating rounds; a task that throws fails the measurement (no silent error paths). */
export async function measure(tasks: Record<string, BenchTask>, options: MeasureOptions = {}): Promise<Record<string, Measured>> {
  const names = Object.keys(tasks);
  const rounds = options.rounds ?? 6;
  const perRound = Math.max(1, (options.timeMs ?? 600) / rounds);
  const iterations = options.minIterations ?? 8;
  const out: Record<string, Measured> = Object.fromEntries(names.map((name) => [name, { name, medianUs: 0, samples: 0, roundsUs: [] }]));
  for (const name of names) {
    const task = tasks[name]!;
    for (let i = 0; i < (options.warmupCalls ?? 0); i++) {
      if (typeof task === 'function') await task();
      else {
        await task.run();
        await task.afterEach();
      }
    }
  }
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!;
      const { p50Us, samples } = await oneRound(name, tasks[name]!, perRound, iterations, round === 0);
      out[name]!.roundsUs.push(p50Us);
      out[name]!.samples += samples;
    }
  }
  for (const m of Object.values(out)) m.medianUs = median(m.roundsUs);
  return out;
}

/** `a` over `b`: the median of their per-round ratios, to two decimals. */
export function ratio(a: Measured, b: Measured): number {
  const n = Math.min(a.roundsUs.length, b.roundsUs.length);
  const perRound = n > 0 ? Array.from({ length: n }, (_, i) => a.roundsUs[i]! / b.roundsUs[i]!) : [a.medianUs / b.medianUs];
  return Math.round(median(perRound) * 100) / 100;
}

/** Wall time of one async call, in milliseconds. */
export async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export { median };

export function printTable(title: string, rows: Record<string, string | number>[]): void {
  console.log(`\n${title}`);
  console.table(rows);
}
