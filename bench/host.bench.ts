/**
 * Call costs against a bare vscode-jsonrpc connection to an identical child (the `plain` fixture
 * plugin), measured in alternating rounds in one run:
 * - a host-mediated call (`host.invokeTool`: deadline, cancellation, result check and cap);
 * - a kernel-mediated call (`toolSet.execute`: the gate without hooks, then the host);
 * - 1,000 concurrent calls over 4 plugins through the kernel against the same 1,000 requests
 *   pipelined over 4 bare children (throughput);
 * - a plugin's cold start, from `createKernel` to the first answered call, against a bare
 *   `node -e ''` start.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/host.bench.js`.
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { createKernel, type PincerConfig } from '../kernel/index.js';
import { createPluginHost } from '../kernel/host/index.js';
import { NAMED_ECHO_PLUGIN, assertEchoed, startBareChild } from './lib/bare-rpc.js';
import { measure, ratio, WARMUP_CALLS } from './lib/measure.js';
import { printRows, us, type SuiteReport } from './lib/report.js';
import { quietLogger, scratchDir } from './lib/scratch.js';

const ARGS = { a: 1 };
const PLUGINS = 4;
const BURST = 1_000;

const pluginIds = (n: number): string[] => Array.from({ length: n }, (_, i) => `p${i}`);

function echoPlugins(n: number): NonNullable<PincerConfig['plugins']> {
  return pluginIds(n).map((id) => ({ id, module: NAMED_ECHO_PLUGIN }));
}

const bareChild = (id: string) => startBareChild({ module: NAMED_ECHO_PLUGIN, id, tool: `${id}_echo` });

async function startKernel(plugins: NonNullable<PincerConfig['plugins']>, cwd: string) {
  const kernel = createKernel({ plugins }, { logger: quietLogger, cwd });
  await kernel.start();
  return kernel;
}

function okText(result: { outcome: string; content: { type: string; text?: string }[] }, args: Record<string, unknown>): void {
  if (result.outcome !== 'ok') throw new Error(`kernel call ended ${result.outcome}: ${JSON.stringify(result.content).slice(0, 200)}`);
  assertEchoed(result, args);
}

const nodeStart = () => new Promise((resolve, reject) => spawn(process.execPath, ['-e', '']).once('exit', resolve).once('error', reject));

export async function runHostBench(options: { timeMs?: number } = {}): Promise<SuiteReport> {
  const scratch = scratchDir('host');
  const timeMs = options.timeMs ?? 1_200;
  const stops: (() => unknown)[] = [];
  try {
    const host = createPluginHost({ plugins: echoPlugins(1), logger: quietLogger });
    await host.start();
    stops.push(() => host.stop());
    const kernel = await startKernel(echoPlugins(1), scratch.dir);
    stops.push(() => kernel.stop());
    const toolSet = kernel.assembleTools();
    const bare = await bareChild('p0');
    stops.push(() => bare.close());
    const call = await measure(
      {
        'bare request': () => bare.call(),
        'host-mediated': async () => assertEchoed(await host.invokeTool('p0', 'p0_echo', ARGS), ARGS),
        'kernel-mediated': async () => okText(await toolSet.execute('p0_echo', ARGS), ARGS),
      },
      { timeMs, warmupCalls: WARMUP_CALLS },
    );

    const many = await startKernel(echoPlugins(PLUGINS), scratch.dir);
    stops.push(() => many.stop());
    const manyTools = many.assembleTools();
    const bares = await Promise.all(pluginIds(PLUGINS).map(bareChild));
    stops.push(() => bares.forEach((b) => b.close()));
    const burst = await measure(
      {
        'bare pipelined': () => Promise.all(Array.from({ length: BURST }, (_, i) => bares[i % PLUGINS]!.call({ i }))),
        kernel: () => Promise.all(Array.from({ length: BURST }, async (_, i) => okText(await manyTools.execute(`p${i % PLUGINS}_echo`, { i }), { i }))),
      },
      { timeMs: timeMs * 2, minIterations: 3, warmupCalls: Math.ceil(WARMUP_CALLS / BURST) },
    );

    let started: Awaited<ReturnType<typeof startKernel>> | undefined;
    const cold = await measure(
      {
        "node -e ''": nodeStart,
        'first answered call': {
          run: async () => {
            started = await startKernel(echoPlugins(1), scratch.dir);
            okText(await started.assembleTools().execute('p0_echo', ARGS), ARGS);
          },
          afterEach: () => started?.stop(),
        },
      },
      { timeMs: timeMs * 4, minIterations: 2, rounds: 8 },
    );

    const bareUs = call['bare request']!.medianUs;
    const rows: SuiteReport['rows'] = [
      { suite: 'host', measure: 'host-mediated call vs bare vscode-jsonrpc request', value: ratio(call['host-mediated']!, call['bare request']!), figure: `${us(call['host-mediated']!.medianUs)} vs ${us(bareUs)}`, target: { op: '<=', value: 1.05 } },
      { suite: 'host', measure: 'kernel-mediated call (gate, no hooks) vs bare request', value: ratio(call['kernel-mediated']!, call['bare request']!), figure: `${us(call['kernel-mediated']!.medianUs)} vs ${us(bareUs)}`, target: { op: '<=', value: 1.15 } },
      {
        suite: 'host',
        measure: `${BURST} concurrent kernel calls over ${PLUGINS} plugins vs pipelined over ${PLUGINS} bare children (throughput)`,
        value: ratio(burst['bare pipelined']!, burst.kernel!),
        figure: `${Math.round(BURST / (burst.kernel!.medianUs / 1e6))} vs ${Math.round(BURST / (burst['bare pipelined']!.medianUs / 1e6))} calls/s`,
        target: { op: '>=', value: 0.8 },
      },
      { suite: 'host', measure: "plugin cold start to the first answered call vs node -e ''", value: ratio(cold['first answered call']!, cold["node -e ''"]!), figure: `${us(cold['first answered call']!.medianUs)} vs ${us(cold["node -e ''"]!.medianUs)}`, target: { op: '<=', value: 1.3 } },
    ];
    return { rows, detail: { call, burst, cold } };
  } finally {
    for (const stop of stops.reverse()) await stop();
    scratch.remove();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printRows((await runHostBench()).rows);
}
