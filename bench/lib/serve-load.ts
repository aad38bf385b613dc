/**
 * Load on the MCP front, behind `bench/serve-load.ts` (minutes) and `test/soak/serve-load.test.ts`
 * (seconds): `pincer serve --http` on loopback, `sessions` MCP SDK clients (Streamable HTTP) each
 * calling a counting echo tool one call after another for `durationMs`. Some clients have their
 * call streams cut mid-call (they resume with Last-Event-ID); some abandon their session without
 * closing it and open a new one. Checked, not assumed: every call answered once with its own tag,
 * run once by the plugin (its own count), abandoned sessions expired by the server, none left.
 */
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { droppingFetch } from './dropping-fetch.js';
import { processesWith } from './process-table.js';
import { scratchDir } from './scratch.js';
import { startServeHttp, type ServeHttpProcess } from './serve-http-process.js';

// The checkout: this file runs compiled (dist/bench/lib) from the bench script, from source under vitest.
const ROOT = path.resolve(import.meta.dirname, import.meta.dirname.includes(`${path.sep}dist${path.sep}`) ? '../../..' : '../..');
const CLI = path.join(ROOT, 'dist/cli/main.js');
const COUNTER = path.join(ROOT, 'dist/test/fixtures/plugins/counts-its-calls.js');

export interface ServeLoadOptions {
  /** Concurrent client sessions, one call in flight each. */
  sessions: number;
  durationMs: number;
  /** Share of sessions whose call streams get cut (default 0.2), and the chance per call (default 0.25). */
  droppers?: number;
  dropChance?: number;
  /** Share of sessions that abandon their session now and then (default 0.2), after this many calls. */
  abandoners?: number;
  abandonAfterCalls?: [number, number];
  /** The server's --idle-timeout, in seconds. */
  idleTimeoutS: number;
  /** How long each call takes in the plugin (default 0–50 ms). */
  callDelayMs?: [number, number];
  /** A call with no answer after this long counts as unanswered (default 30 s). */
  callTimeoutMs?: number;
  /** Force full GCs in the server (heap snapshots, before and after the calls) to report its heap. */
  measureHeap?: boolean;
  sampleEveryMs?: number;
  onSample?: (sample: { atMs: number; calls: number; rssMb: number; heapMb?: number; sessions: number }) => void;
}

export interface ServeLoadReport {
  calls: number;
  /** Answered with its own tag, run once (the plugin's count for the tag is 1). */
  answered: number;
  /** Answers with another call's tag or a repeat count (at most 5 shown). */
  wrong: string[];
  /**
   * Calls that failed or got no answer in time, split by what the plugin saw: never ran (the
   * request did not get through, e.g. a keep-alive connection the server had just closed: the
   * client got an error, once) or ran with its answer lost (a broken promise). One message.
   */
  unanswered: { count: number; notDelivered: number; lost: number; sample?: string };
  /** Session starts that failed and were retried (a connection closed under the client). */
  connectRetries: number;
  /** Responses the client received for a request it no longer waited for (a second answer). */
  duplicates: number;
  streamsCut: number;
  abandoned: number;
  server: { opened: number; closed: number; expired: number; live: number; ran: number; repeated: string[] };
  callsPerSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  rssMb: { warm: number; end: number; afterExpiry: number };
  /**
   * The server's heap after a full GC: forced before the first session and once every session had
   * gone (idle), and the server's own latest one at the warm-up mark and at the end of the calls.
   */
  heapMb: { start: number; warm?: number; end?: number; afterExpiry: number };
  /** Processes with the run's marker after serve exited. */
  leftovers: string[];
  exitCode: number | null;
}

const between = ([min, max]: readonly [number, number]): number => Math.round(min + Math.random() * (max - min));
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

interface Run {
  options: ServeLoadOptions;
  failedTags: string[];
  server: ServeHttpProcess;
  report: ServeLoadReport;
  latencies: number[];
  until: number;
}

async function connect(run: Run, name: string, drops: boolean): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const fetch = drops ? droppingFetch(() => Math.random() < (run.options.dropChance ?? 0.25), () => (run.report.streamsCut += 1)) : undefined;
  const transport = new StreamableHTTPClientTransport(run.server.url, {
    requestInit: { headers: { Authorization: `Bearer ${run.server.token}` } },
    fetch,
    // Resume a cut stream at once (the server's retry hint, 1 s, would do as well, only slower).
    reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
  });
  const client = new Client({ name, version: '1' });
  client.onerror = (error) => {
    if (/unknown message ID/i.test(error.message)) run.report.duplicates += 1;
  };
  await client.connect(transport);
  return { client, transport };
}

async function connectWithRetry(run: Run, name: string, drops: boolean): ReturnType<typeof connect> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await connect(run, name, drops);
    } catch (error) {
      if (attempt >= 5) throw error;
      run.report.connectRetries += 1;
      await sleep(200);
    }
  }
}

/** One client: calls until the time is up; an abandoner walks away from its session now and then and opens another. */
async function session(run: Run, i: number): Promise<void> {
  const { options, report } = run;
  const drops = i < Math.round(options.sessions * (options.droppers ?? 0.2));
  const abandons = i >= options.sessions - Math.round(options.sessions * (options.abandoners ?? 0.2));
  for (let generation = 0; Date.now() < run.until; generation++) {
    const { client, transport } = await connectWithRetry(run, `load-${i}.${generation}`, drops);
    const budget = abandons ? between(options.abandonAfterCalls ?? [5, 20]) : Number.POSITIVE_INFINITY;
    for (let n = 0; n < budget && Date.now() < run.until; n++) await oneCall(run, client, `${i}.${generation}.${n}`);
    if (abandons && Date.now() < run.until) {
      // No DELETE: the client is just gone (its connections closed); the server must expire the session.
      report.abandoned += 1;
      await transport.close();
      continue;
    }
    await transport.terminateSession().catch(() => undefined);
    await client.close();
    return;
  }
}

async function oneCall(run: Run, client: Client, tag: string): Promise<void> {
  const { report } = run;
  const started = performance.now();
  report.calls += 1;
  try {
    const result = await client.callTool({ name: 'counted_echo', arguments: { tag, ms: between(run.options.callDelayMs ?? [0, 50]) } }, undefined, { timeout: run.options.callTimeoutMs ?? 30_000 });
    run.latencies.push(performance.now() - started);
    const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('');
    let answer: { tag?: string; n?: number } | undefined;
    try {
      answer = JSON.parse(text) as { tag?: string; n?: number };
    } catch {
      answer = undefined;
    }
    if (!result.isError && answer?.tag === tag && answer.n === 1) report.answered += 1;
    else if (report.wrong.push(`call ${tag} got ${text.slice(0, 200)}`) > 5) report.wrong.length = 5;
  } catch (error) {
    report.unanswered.count += 1;
    report.unanswered.sample ??= `call ${tag}: ${(error as Error).message}`;
    run.failedTags.push(tag);
  }
}

export async function runServeLoad(options: ServeLoadOptions): Promise<ServeLoadReport> {
  const scratch = scratchDir('serve-load');
  const marker = `pincer-serve-load-${process.pid}-${Date.now().toString(36)}`;
  const config = path.join(scratch.dir, 'pincer.config.json');
  writeFileSync(config, JSON.stringify({ plugins: [{ id: 'counter', module: COUNTER, args: [marker] }], agents: { list: [{ id: 'main', default: true, workspace: scratch.dir }] } }));
  const maxSessions = String(options.sessions * 4 + 10); // the live ones plus abandoned ones awaiting expiry
  const server = await startServeHttp(CLI, scratch.dir, ['--config', config, '--max-sessions', maxSessions, '--idle-timeout', String(options.idleTimeoutS)], { PINCER_STATE_DIR: path.join(scratch.dir, 'state') });
  const report: ServeLoadReport = {
    calls: 0, answered: 0, wrong: [], unanswered: { count: 0, notDelivered: 0, lost: 0 }, connectRetries: 0, duplicates: 0, streamsCut: 0, abandoned: 0,
    server: { opened: 0, closed: 0, expired: 0, live: 0, ran: 0, repeated: [] }, callsPerSecond: 0,
    latencyMs: { p50: 0, p99: 0, max: 0 }, rssMb: { warm: 0, end: 0, afterExpiry: 0 }, heapMb: { start: 0, afterExpiry: 0 }, leftovers: [], exitCode: null,
  };
  const run: Run = { options, server, report, failedTags: [], latencies: [], until: 0 };
  try {
    if (options.measureHeap) report.heapMb.start = await server.heapAfterGcMb();
    run.until = Date.now() + options.durationMs;
    const started = performance.now();
    const warmAt = Math.min(options.durationMs / 4, 60_000);
    const warm = setTimeout(() => {
      report.rssMb.warm = server.rssMb();
      report.heapMb.warm = server.lastFullGcMb();
    }, warmAt);
    const sampler = options.sampleEveryMs
      ? setInterval(() => options.onSample?.({ atMs: Math.round(performance.now() - started), calls: report.calls, rssMb: server.rssMb(), heapMb: server.lastFullGcMb(), sessions: server.sessions.live }), options.sampleEveryMs)
      : undefined;
    await Promise.all(Array.from({ length: options.sessions }, (_, i) => session(run, i)));
    const elapsed = performance.now() - started;
    clearTimeout(warm);
    clearInterval(sampler);
    report.rssMb.end = server.rssMb();
    report.heapMb.end = server.lastFullGcMb();
    report.callsPerSecond = Math.round(report.calls / (elapsed / 1000));
    const sorted = run.latencies.sort((a, b) => a - b);
    report.latencyMs = { p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)), max: round(sorted.at(-1) ?? 0) };
    // Every session is closed (DELETE) or abandoned; the abandoned ones go at the idle timeout.
    const deadline = Date.now() + options.idleTimeoutS * 3_000 + 5_000;
    while (server.sessions.live > 0 && Date.now() < deadline) await sleep(100);
    report.rssMb.afterExpiry = server.rssMb();
    if (options.measureHeap) report.heapMb.afterExpiry = await server.heapAfterGcMb();
    const sessions = { ...server.sessions }; // before the counting session of our own
    const counts = await serverCounts(run);
    report.server = { ...sessions, ran: counts.ran, repeated: counts.repeated };
    report.unanswered.lost = counts.failedButRan;
    report.unanswered.notDelivered = report.unanswered.count - counts.failedButRan;
  } finally {
    report.exitCode = await server.stop();
    report.leftovers = processesWith(marker);
    scratch.remove();
  }
  return report;
}

/** What the plugin ran (and which failed calls it ran anyway), asked in a session of its own, which then closes. */
async function serverCounts(run: Run): Promise<{ ran: number; repeated: string[]; failedButRan: number }> {
  const { client, transport } = await connectWithRetry(run, 'load-counts', false);
  // Idempotent, so retried: after the expiry wait the client's pooled connections may be closing.
  let result: Awaited<ReturnType<Client['callTool']>> | undefined;
  for (let attempt = 1; !result; attempt++) {
    result = await client.callTool({ name: 'call_counts', arguments: { tags: run.failedTags } }).catch((error: Error) => {
      if (attempt >= 5) throw error;
      return sleep(200).then(() => undefined);
    });
  }
  await transport.terminateSession();
  await client.close();
  const counts = JSON.parse((result.content as { text: string }[])[0]!.text) as { total: number; repeated: string[]; ran: string[] };
  return { ran: counts.total, repeated: counts.repeated, failedButRan: counts.ran.length };
}

const round = (n: number): number => Math.round(n * 10) / 10;
