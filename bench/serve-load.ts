/**
 * Load on the MCP front: `pincer serve --http` on loopback with 100 concurrent MCP SDK client
 * sessions (bench/lib/serve-load.ts). In `npm run bench` it runs 20 s and reports calls/s and
 * p99 latency; by hand it runs as long as asked and prints the whole report:
 *
 *   npx tsc -p tsconfig.json && node dist/bench/serve-load.js --minutes=5
 *
 * Flags: --minutes=N or --seconds=N (default 20 s), --sessions=N (default 100),
 * --idle-timeout-s=N (the server's --idle-timeout, default 10), --sample-every-s=N (default 30),
 * --json. Exits 1 when a promise broke: a call unanswered, answered twice or with another call's
 * tag, run twice or never by the plugin, an abandoned session that did not expire, a process left.
 */
import { pathToFileURL } from 'node:url';
import type { BenchRow } from './lib/report.js';
import { runServeLoad, type ServeLoadOptions, type ServeLoadReport } from './lib/serve-load.js';

const mb = (n: number) => `${n.toFixed(1)} MB`;
const opt = (n: number | undefined) => (n === undefined ? 'n/a (no full GC yet)' : mb(n));

/** The promises of the front, as one list of what broke (empty when all held). */
export function brokenPromises(r: ServeLoadReport): string[] {
  const broken: string[] = [];
  if (r.unanswered.lost > 0) broken.push(`${r.unanswered.lost} calls ran but their answer was lost (${r.unanswered.sample})`);
  if (r.answered !== r.calls - r.unanswered.count || r.wrong.length > 0) broken.push(`wrong answers: ${r.wrong.join('; ')}`);
  if (r.duplicates > 0) broken.push(`${r.duplicates} answers delivered twice`);
  const delivered = r.calls - r.unanswered.notDelivered;
  if (r.server.ran !== delivered || r.server.repeated.length > 0) broken.push(`the plugin ran ${r.server.ran} calls for ${delivered} delivered (repeated: ${r.server.repeated.join(', ') || 'none'})`);
  if (r.server.expired !== r.abandoned || r.server.live !== 0) broken.push(`${r.abandoned} sessions abandoned, ${r.server.expired} expired, ${r.server.live} still live`);
  if (r.leftovers.length > 0) broken.push(`processes left: ${r.leftovers.join('; ')}`);
  return broken;
}

export function describeLoad(r: ServeLoadReport, sessions: number): string[] {
  return [
    `${sessions} sessions: ${r.calls} calls, ${r.callsPerSecond} calls/s; latency p50 ${r.latencyMs.p50} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms`,
    `answered once with their own tag ${r.answered}; failed ${r.unanswered.count} (never reached the plugin ${r.unanswered.notDelivered}, ran but answer lost ${r.unanswered.lost}${r.unanswered.sample ? `; e.g. ${r.unanswered.sample}` : ''}); delivered twice ${r.duplicates}; ran by the plugin ${r.server.ran} (repeated ${r.server.repeated.length}); session starts retried ${r.connectRetries}`,
    `streams cut mid-call ${r.streamsCut} (resumed); sessions opened ${r.server.opened}, closed by their client ${r.server.closed}, abandoned ${r.abandoned}, expired ${r.server.expired}, live at the end ${r.server.live}`,
    `serve heap after full GC: ${mb(r.heapMb.start)} before the first session, ${opt(r.heapMb.warm)} at the warm-up mark, ${opt(r.heapMb.end)} at the end of the calls, ${mb(r.heapMb.afterExpiry)} once every session had gone`,
    `serve rss: ${mb(r.rssMb.warm)} warm → ${mb(r.rssMb.end)} at the end of the calls → ${mb(r.rssMb.afterExpiry)} once every session had gone; exit ${r.exitCode}; processes left ${r.leftovers.length}`,
  ];
}

export async function runServeLoadBench(options: Partial<ServeLoadOptions> = {}): Promise<BenchRow[]> {
  const sessions = options.sessions ?? 100;
  const r = await runServeLoad({ sessions, durationMs: 20_000, idleTimeoutS: 10, ...options });
  const broken = brokenPromises(r);
  const note = broken.length > 0 ? `BROKEN: ${broken.join('; ')}` : undefined;
  const figure = `${r.calls} calls, ${r.streamsCut} streams cut, ${r.abandoned} sessions abandoned (all expired)`;
  return [
    { suite: 'serve-load', measure: `${sessions} MCP sessions over Streamable HTTP, throughput`, value: r.callsPerSecond, unit: 'calls/s', figure, ...(note ? { note } : {}) },
    { suite: 'serve-load', measure: `${sessions} MCP sessions over Streamable HTTP, p99 latency`, value: r.latencyMs.p99, unit: 'ms', figure: `p50 ${r.latencyMs.p50} ms, max ${r.latencyMs.max} ms` },
  ];
}

// Run by hand: as long as asked, the whole report, exit 1 on a broken promise.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const flag = (name: string): number | undefined => {
    const raw = args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
    if (raw === undefined) return undefined;
    const value = Number(raw);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number, got ${raw}`);
    return value;
  };
  const sessions = flag('sessions') ?? 100;
  const durationMs = flag('seconds') !== undefined ? flag('seconds')! * 1000 : flag('minutes') !== undefined ? flag('minutes')! * 60_000 : 20_000;
  process.stderr.write(`serve load: ${sessions} sessions for ${durationMs / 1000} s\n`);
  const r = await runServeLoad({
    sessions,
    durationMs,
    idleTimeoutS: flag('idle-timeout-s') ?? 10,
    measureHeap: true,
    sampleEveryMs: (flag('sample-every-s') ?? 30) * 1000,
    onSample: (s) => process.stderr.write(`  ${Math.round(s.atMs / 1000)} s: ${s.calls} calls, ${s.sessions} sessions live, serve heap after its last full GC ${opt(s.heapMb)}, rss ${mb(s.rssMb)}\n`),
  });
  process.stdout.write(describeLoad(r, sessions).join('\n') + '\n');
  if (args.includes('--json')) process.stdout.write(JSON.stringify(r, null, 2) + '\n');
  const broken = brokenPromises(r);
  if (broken.length > 0) process.stdout.write(`BROKEN:\n  ${broken.join('\n  ')}\n`);
  process.exit(broken.length > 0 ? 1 : 0);
}
