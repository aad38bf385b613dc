/**
 * The chaos run behind `test/soak/chaos.test.ts` (a few seconds, in CI) and
 * `bench/chaos-soak.ts` (minutes, by hand): a real kernel over several real plugin processes,
 * `concurrency` callers calling them without pause while a fault injector kills, stops and
 * hangs up plugins at random. It counts, never assumes: calls that did not settle in time
 * (hung), answers that carry another call's tag (misrouted), failures with a code the faults do
 * not explain, processes left after stop, and the heap along the way.
 */
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createKernel, type CallResult, type Kernel, type PincerConfig, type RestartPolicy } from '../../kernel/index.js';
import { FaultInjector, type FaultKind, type FaultTarget } from './chaos-faults.js';
import { memoryAfterGc } from './heap.js';
import { membersOfGroups, processesWith } from './process-table.js';
import { scratchDir } from './scratch.js';

// The checkout: this file runs compiled (dist/bench/lib) from the bench script, from source under vitest.
const ROOT = path.resolve(import.meta.dirname, import.meta.dirname.includes(`${path.sep}dist${path.sep}`) ? '../../..' : '../..');
/** Both built fixtures: one closes its pipe on SIGUSR2, the other is the plain SDK serve(). */
export const HANGS_UP = path.join(ROOT, 'dist/test/fixtures/plugins/hangs-up-on-sigusr2.js');
export const NAMED_ECHO = path.join(ROOT, 'dist/bench/fixtures/named-echo.js');

/**
 * What the faults explain: a crash, a restart in progress, a stopped plugin's deadline and ping,
 * and a restart whose handshake missed its deadline (the calls that waited for that start get
 * its reason; on a loaded machine a restart under 1,000 callers can take longer than 5 s).
 */
export const EXPECTED_FAILURES = new Set(['PLUGIN_CRASHED', 'PLUGIN_UNAVAILABLE', 'PLUGIN_TIMEOUT', 'PLUGIN_UNRESPONSIVE', 'HANDSHAKE_FAILED']);

export interface ChaosOptions {
  /** Plugin processes, alternating the two fixtures (default 4). */
  plugins?: number;
  /** Calls in flight at once. */
  concurrency: number;
  /** How long callers keep calling. */
  durationMs: number;
  /** Mean time between two faults. */
  faultEveryMs: number;
  /** Keep calling (past `durationMs` if need be) until this many faults of each kind have landed. */
  faultsPerKind?: number;
  /** How long a SIGSTOP lasts (default 200–4,000 ms: some outlast the call deadline and the ping). */
  stopMs?: [number, number];
  /** How long each call takes in the plugin (default 0–200 ms). */
  callDelayMs?: [number, number];
  /** A call not settled after this long counts as hung (default 15 s). */
  hangMs?: number;
  /** Each plugin's call deadline and liveness ping (default 2,000 and 1,000 ms; the config defaults are 30 s and 5 s). */
  callMs?: number;
  pingMs?: number;
  /** The supervisor's crash budget (default: unlimited, 50–200 ms backoff, so the run measures settling). */
  restart?: Partial<RestartPolicy>;
  /** Leave one plugin SIGSTOPped when the kernel stops. */
  stopOneAtEnd?: boolean;
  /** Heap samples (after a full GC) every this many ms, passed to `onSample`. */
  sampleEveryMs?: number;
  onSample?: (sample: MemorySample) => void;
}

export interface MemorySample {
  /** Before the first call, with calls in flight, or after the last one settled. */
  phase: 'start' | 'running' | 'drained';
  atMs: number;
  calls: number;
  heapMb: number;
  rssMb: number;
}

export interface ChaosReport {
  /** The chaos itself (calls and faults, until the last call settled). */
  durationMs: number;
  /** kernel.start(), the check that every plugin serves again, kernel.stop(). */
  phasesMs: { start: number; recover: number; stop: number };
  calls: number;
  ok: number;
  /** Failures the faults explain, by code. */
  failures: Record<string, number>;
  /** Failures they do not, by code, with one message each. */
  unexpected: Record<string, { count: number; sample: string }>;
  hung: number;
  /** Answers that did not carry their own call's tag and plugin (at most 5 shown). */
  misrouted: string[];
  misroutedCount: number;
  faults: Record<FaultKind, number>;
  restarts: number;
  /** The kernel's event-loop delay during the chaos (its own load: a late timer is a late deadline). */
  loopDelayMs: { p99: number; max: number };
  /** After the chaos, before stop: calls still tracked by the kernel, and whether each plugin answered a fresh call. */
  inflightAfter: number;
  servedAfter: Record<string, boolean>;
  /** After stop: processes with the run's marker, and members of any plugin process group seen. */
  leftovers: string[];
  samples: MemorySample[];
}

const between = ([min, max]: readonly [number, number]): number => Math.round(min + Math.random() * (max - min));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function textOf(result: CallResult): string {
  return result.content.map((block) => ('text' in block ? block.text : '')).join('');
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const scratch = scratchDir('chaos');
  const savedStateDir = process.env.PINCER_STATE_DIR;
  process.env.PINCER_STATE_DIR = path.join(scratch.dir, 'state'); // plugin data dirs, away from ~/.pincer
  // A marker in every plugin's argv finds each process it ever started, restarts included.
  const marker = `pincer-chaos-${process.pid}-${Date.now().toString(36)}`;
  const targets: FaultTarget[] = Array.from({ length: options.plugins ?? 4 }, (_, i) => ({ id: `chaos-${i}`, hangsUp: i % 2 === 0 }));
  const config: PincerConfig = {
    plugins: targets.map((t) => ({
      id: t.id,
      module: t.hangsUp ? HANGS_UP : NAMED_ECHO,
      args: [marker],
      timeouts: { handshakeMs: 5_000, callMs: options.callMs ?? 2_000, pingMs: options.pingMs ?? 1_000, shutdownGraceMs: 300, killGraceMs: 300 },
    })),
    agents: { list: [{ id: 'main', default: true, workspace: scratch.dir }] },
  };
  const restart = { maxCrashes: 1_000_000, windowMs: 1_000, backoffBaseMs: 50, backoffMaxMs: 200, ...options.restart };
  const kernel = createKernel(config, { logger: () => undefined, cwd: scratch.dir, restart });
  const t0 = performance.now();
  await kernel.start();
  const startMs = Math.round(performance.now() - t0);
  const faults = new FaultInjector(kernel, targets, options.stopMs ?? [200, 4_000]);
  const report: ChaosReport = {
    durationMs: 0, phasesMs: { start: startMs, recover: 0, stop: 0 }, calls: 0, ok: 0, failures: {}, unexpected: {}, hung: 0, misrouted: [], misroutedCount: 0,
    faults: faults.applied, restarts: 0, loopDelayMs: { p99: 0, max: 0 }, inflightAfter: 0, servedAfter: {}, leftovers: [], samples: [],
  };
  const started = performance.now();
  const sample = (phase: MemorySample['phase']): void => {
    const memory = memoryAfterGc();
    const s = { phase, atMs: Math.round(performance.now() - started), calls: report.calls, heapMb: memory.heapMb, rssMb: memory.rssMb };
    report.samples.push(s);
    options.onSample?.(s);
  };
  try {
    sample('start');
    const until = Date.now() + options.durationMs;
    const wanted = options.faultsPerKind ?? 0;
    const faultsOwed = () => Object.values(faults.applied).some((n) => n < wanted);
    const calling = { on: true };
    const observer = setInterval(() => faults.observe(), 50);
    const loop = monitorEventLoopDelay({ resolution: 20 });
    loop.enable();
    const injector = (async () => {
      while (Date.now() < until || faultsOwed()) {
        const gap = between([options.faultEveryMs * 0.5, options.faultEveryMs * 1.5]);
        await sleep(faultsOwed() ? gap : Math.min(gap, Math.max(0, until - Date.now())));
        if (Date.now() >= until && !faultsOwed()) break;
        while ((Date.now() < until || faultsOwed()) && !faults.inject()) await sleep(20);
      }
      calling.on = false;
    })();
    const sampler = options.sampleEveryMs ? setInterval(() => sample('running'), options.sampleEveryMs) : undefined;
    const callers = Array.from({ length: options.concurrency }, (_, w) => caller(kernel, w, targets, calling, options, report));
    await Promise.all([injector, ...callers]);
    clearInterval(observer);
    clearInterval(sampler);
    loop.disable();
    report.loopDelayMs = { p99: Math.round(loop.percentile(99) / 1e6), max: Math.round(loop.max / 1e6) };
    faults.resumeAll();
    sample('drained');
    report.durationMs = Math.round(performance.now() - started);
    report.inflightAfter = kernel.plugins().reduce((sum, s) => sum + s.inflight, 0);
    const t1 = performance.now();
    report.servedAfter = await servedAfterChaos(kernel, targets);
    report.phasesMs.recover = Math.round(performance.now() - t1);
    report.restarts = kernel.plugins().reduce((sum, s) => sum + s.restarts, 0);
    faults.observe();
    if (options.stopOneAtEnd) faults.stopOneForGood();
  } finally {
    faults.resumeAll();
    const t2 = performance.now();
    await kernel.stop();
    report.phasesMs.stop = Math.round(performance.now() - t2);
    report.leftovers = [...new Set([...processesWith(marker), ...membersOfGroups(faults.groups)])];
    scratch.remove();
    if (savedStateDir === undefined) delete process.env.PINCER_STATE_DIR;
    else process.env.PINCER_STATE_DIR = savedStateDir;
  }
  return report;
}

/** One caller: a call at a time to a random plugin, re-assembling its tools every 20 calls like a host's turns. */
async function caller(kernel: Kernel, w: number, targets: readonly FaultTarget[], calling: { on: boolean }, options: ChaosOptions, report: ChaosReport): Promise<void> {
  const sessionKey = `agent:main:chaos:${w}`;
  let toolSet = kernel.assembleTools({ agentId: 'main', sessionKey });
  for (let n = 0; calling.on; n++) {
    if (n % 20 === 19) toolSet = kernel.assembleTools({ agentId: 'main', sessionKey });
    const target = targets[Math.floor(Math.random() * targets.length)]!;
    const tag = `${w}.${n}.${Math.random().toString(36).slice(2, 8)}`;
    const call = toolSet.execute(`${target.id}_echo`, { tag, ms: between(options.callDelayMs ?? [0, 200]) });
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), options.hangMs ?? 15_000)));
    const result = await Promise.race([call, hung]);
    clearTimeout(timer);
    report.calls += 1;
    if (result === 'hung') {
      report.hung += 1;
      continue;
    }
    if (result.outcome === 'ok') {
      const answer = safeJson(textOf(result));
      // The tag is unique per call; the plugin's id is there when the fixture reports it (named-echo echoes params only).
      if (answer?.tag === tag && (answer.plugin === undefined || answer.plugin === target.id)) report.ok += 1;
      else {
        report.misroutedCount += 1;
        if (report.misrouted.length < 5) report.misrouted.push(`call ${tag} to ${target.id} got ${textOf(result).slice(0, 200)}`);
      }
      continue;
    }
    if (EXPECTED_FAILURES.has(result.code)) report.failures[result.code] = (report.failures[result.code] ?? 0) + 1;
    else {
      const seen = (report.unexpected[result.code] ??= { count: 0, sample: result.error.message });
      seen.count += 1;
    }
    await sleep(between([20, 100])); // a host backs off after a failure (a restarting plugin answers at once)
  }
}

function safeJson(text: string): { tag?: unknown; plugin?: unknown } | undefined {
  try {
    return JSON.parse(text) as { tag?: unknown; plugin?: unknown };
  } catch {
    return undefined;
  }
}

/** After the faults: every plugin, restarted or not, answers a fresh call (within a few retries while it restarts). */
async function servedAfterChaos(kernel: Kernel, targets: readonly FaultTarget[]): Promise<Record<string, boolean>> {
  const served: Record<string, boolean> = {};
  await Promise.all(
    targets.map(async (t) => {
      for (let attempt = 0; attempt < 50 && !served[t.id]; attempt++) {
        const result = await kernel.assembleTools({ agentId: 'main' }).execute(`${t.id}_echo`, { tag: 'after' });
        served[t.id] = result.outcome === 'ok' && safeJson(textOf(result))?.tag === 'after';
        if (!served[t.id]) await sleep(100);
      }
    }),
  );
  return served;
}
