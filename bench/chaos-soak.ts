/**
 * The chaos soak, by hand (not in `npm test`, not in `npm run bench`):
 *
 *   npx tsc -p tsconfig.json && node dist/bench/chaos-soak.js --minutes=10
 *
 * Flags: --minutes=N (default 10) or --seconds=N, --concurrency=N callers (default 1,000),
 * --plugins=N (default 4), --fault-every-ms=N (default 1,000), --call-ms=N and --ping-ms=N (each
 * plugin's call deadline and liveness ping, default 5,000 and 2,000), --stop-max-ms=N (a SIGSTOP
 * lasts 200 ms to this, default 8,000: some outlast deadline and ping), --sample-every-s=N
 * (default 30), --json (the whole report). Exits 1 when a promise broke: a call lost or hung, an answer that
 * reached the wrong caller, a failure the faults do not explain, a process left after stop, a
 * plugin that does not serve again, or a heap that grew by more than --max-growth-mb (default 32)
 * between the first sample after warm-up and the last.
 */
import { runChaos, type MemorySample } from './lib/chaos.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const num = (name: string, fallback: number): number => {
  const value = Number(flag(name) ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number, got ${flag(name)}`);
  return value;
};

const durationMs = flag('seconds') ? num('seconds', 0) * 1000 : num('minutes', 10) * 60_000;
const sampleEveryMs = Math.min(num('sample-every-s', 30) * 1000, Math.max(1000, durationMs / 4));
const maxGrowthMb = num('max-growth-mb', 32);
const mb = (n: number) => `${n.toFixed(1)} MB`;

process.stderr.write(`chaos soak: ${durationMs / 1000} s, ${num('concurrency', 1000)} callers over ${num('plugins', 4)} plugins, a fault every ~${num('fault-every-ms', 1000)} ms\n`);
const report = await runChaos({
  concurrency: num('concurrency', 1000),
  plugins: num('plugins', 4),
  durationMs,
  faultEveryMs: num('fault-every-ms', 1000),
  callMs: num('call-ms', 5000),
  pingMs: num('ping-ms', 2000),
  stopMs: [200, num('stop-max-ms', 8000)],
  hangMs: 30_000,
  sampleEveryMs,
  stopOneAtEnd: true,
  onSample: (s: MemorySample) => process.stderr.write(`  ${Math.round(s.atMs / 1000)} s: ${s.calls} calls, heap ${mb(s.heapMb)}, rss ${mb(s.rssMb)}\n`),
});

// Like with like: the first sample with calls in flight after a warm-up against the last one
// with calls in flight; and the heap once every call settled against the heap before the first.
const running = report.samples.filter((s) => s.phase === 'running');
const warm = running.find((s) => s.atMs >= Math.min(60_000, durationMs / 4)) ?? running[0];
const lastRunning = running.at(-1);
const start = report.samples.find((s) => s.phase === 'start')!;
const drained = report.samples.find((s) => s.phase === 'drained')!;
const growth = warm && lastRunning ? lastRunning.heapMb - warm.heapMb : 0;
const signed = (n: number) => `${n >= 0 ? '+' : ''}${mb(n)}`;
const failures = Object.entries(report.failures).map(([code, n]) => `${code} ${n}`).join(', ');
const lines = [
  `calls ${report.calls} in ${(report.durationMs / 1000).toFixed(1)} s (${Math.round(report.calls / (report.durationMs / 1000))}/s): ok ${report.ok}; failed ${failures || 'none'}`,
  `faults: SIGKILL ${report.faults.SIGKILL}, SIGSTOP ${report.faults.SIGSTOP}, hang-up ${report.faults.hangup}; restarts ${report.restarts}`,
  `hung ${report.hung}, misrouted ${report.misroutedCount}, unexplained ${JSON.stringify(report.unexpected)}, in flight after ${report.inflightAfter}`,
  `served again: ${Object.entries(report.servedAfter).map(([id, ok]) => `${id} ${ok ? 'yes' : 'NO'}`).join(', ')}`,
  `processes left after stop: ${report.leftovers.length}${report.leftovers.length ? `\n  ${report.leftovers.join('\n  ')}` : ''}`,
  warm && lastRunning
    ? `heap after GC, calls in flight: ${mb(warm.heapMb)} at ${Math.round(warm.atMs / 1000)} s → ${mb(lastRunning.heapMb)} at ${Math.round(lastRunning.atMs / 1000)} s (${signed(growth)}); rss ${mb(warm.rssMb)} → ${mb(lastRunning.rssMb)}`
    : 'heap: no sample with calls in flight (run longer)',
  `heap after GC, idle: ${mb(start.heapMb)} before the first call → ${mb(drained.heapMb)} after the last (${signed(drained.heapMb - start.heapMb)}); rss ${mb(start.rssMb)} → ${mb(drained.rssMb)}`,
  `kernel event-loop delay: p99 ${report.loopDelayMs.p99} ms, max ${report.loopDelayMs.max} ms`,
  `kernel start ${report.phasesMs.start} ms, stop (one plugin SIGSTOPped) ${report.phasesMs.stop} ms`,
];
process.stdout.write(lines.join('\n') + '\n');
if (args.includes('--json')) process.stdout.write(JSON.stringify(report, null, 2) + '\n');

const broken =
  report.hung > 0 || report.misroutedCount > 0 || Object.keys(report.unexpected).length > 0 || report.inflightAfter > 0 ||
  report.leftovers.length > 0 || Object.values(report.servedAfter).some((ok) => !ok) || growth > maxGrowthMb;
process.exit(broken ? 1 : 0);
