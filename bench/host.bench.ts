/**
 * Plugin host costs, measured side by side in one run (ratios, since machines are noisy):
 * cold start (spawn + handshake) vs a bare `node` start; a host-mediated tool call vs a bare
 * vscode-jsonrpc request to an identical child; 1,000 concurrent calls over several plugins;
 * and the median of one bare JSON-RPC round trip (the yardstick for assembly).
 * Run: `npx tsc -p tsconfig.json && node dist/bench/host.bench.js`.
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { createPluginHost } from '../kernel/host/index.js';
import { ECHO_PLUGIN, startBareChild } from './lib/bare-rpc.js';

const ECHO = ECHO_PLUGIN;
const quiet = () => undefined;

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function coldStarts(runs: number): Promise<{ pluginMs: number; bareNodeMs: number }> {
  const plugin: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < runs; i++) {
    const host = createPluginHost({ plugins: [{ id: 'echo', module: ECHO }], logger: quiet });
    plugin.push(await timeMs(() => host.start()));
    await host.stop();
    bare.push(await timeMs(() => new Promise((resolve) => spawn(process.execPath, ['-e', '']).once('exit', resolve))));
  }
  return { pluginMs: median(plugin), bareNodeMs: median(bare) };
}

export async function runHostBench(options: { time?: number; coldRuns?: number; plugins?: number } = {}): Promise<Record<string, unknown>> {
  const cold = await coldStarts(options.coldRuns ?? 10);

  const host = createPluginHost({ plugins: [{ id: 'echo', module: ECHO }], logger: quiet });
  await host.start();
  const bare = await startBareChild({ module: ECHO, id: 'echo' });
  const args = { a: 1 };
  const bench = new Bench({ name: 'plugin host', time: options.time ?? 1_000, warmup: true });
  bench
    .add('bare vscode-jsonrpc round trip', async () => void (await bare.call()))
    .add('host.invokeTool round trip', async () => void (await host.invokeTool('echo', 'echo', args)));
  await bench.run();
  const p50 = (name: string): number => ((bench.tasks.find((t) => t.name === name)?.result as { latency?: { p50?: number } })?.latency?.p50 ?? NaN) * 1000;
  const bareUs = p50('bare vscode-jsonrpc round trip');
  const hostUs = p50('host.invokeTool round trip');
  await host.stop();
  bare.close();

  const n = options.plugins ?? 4;
  const many = createPluginHost({ plugins: Array.from({ length: n }, (_, i) => ({ id: `echo${i}`, module: ECHO })), logger: quiet });
  await many.start();
  const bursts: number[] = [];
  for (let round = 0; round < 5; round++) {
    bursts.push(await timeMs(() => Promise.all(Array.from({ length: 1_000 }, (_, i) => many.invokeTool(`echo${i % n}`, 'echo', { i })))));
  }
  await many.stop();
  const burstMs = median(bursts);

  return {
    coldStart: { pluginSpawnAndHandshakeMs: round(cold.pluginMs), bareNodeStartMs: round(cold.bareNodeMs), ratio: round(cold.pluginMs / cold.bareNodeMs) },
    toolCall: { bareRoundTripUs: round(bareUs), hostInvokeUs: round(hostUs), overheadRatio: round(hostUs / bareUs) },
    throughput: { calls: 1_000, plugins: n, medianBurstMs: round(burstMs), callsPerSecond: Math.round(1_000 / (burstMs / 1000)) },
    /** The yardstick the assembly benchmark compares against. */
    bareJsonRpcRoundTripMedianUs: round(bareUs),
  };
}

const round = (x: number): number => Math.round(x * 100) / 100;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runHostBench(), null, 2));
}
