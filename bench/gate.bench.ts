/**
 * Cost of the call gate relative to calling the tool function directly, measured in the
 * same run: zero hooks (must short-circuit), three pass-through hooks, loop detection on.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/gate.bench.js`.
 */
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import { createToolGate, type HookRegistration, type KernelTool, type ToolResult } from '../kernel/gate/index.js';

const RESULT: ToolResult = { content: [{ type: 'text', text: 'ok' }] };
const PARAMS = { path: 'src/index.ts', offset: 0, limit: 200 };

function benchTool(): KernelTool {
  return {
    name: 'read',
    description: 'Read file contents',
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
    execute: async () => RESULT,
  };
}

const passHook = (pluginId: string, priority: number): HookRegistration => ({ pluginId, priority, handler: async () => undefined });

/** Run the suite; returns median latencies (ns) and their ratios to the direct call. */
export async function runGateBench(options: { time?: number } = {}): Promise<Record<string, unknown>> {
  const tool = benchTool();
  const zeroHooks = createToolGate().wrap(tool);
  const threeHooks = createToolGate({ hooks: [passHook('a', 3), passHook('b', 2), passHook('c', 1)] }).wrap(tool);
  // A huge warning threshold keeps the repeated identical call from being vetoed mid-bench.
  const loopOn = createToolGate({
    loopDetection: { enabled: true, warningThreshold: 1e6, criticalThreshold: 1e6 + 1, globalCircuitBreakerThreshold: 1e6 + 2 },
  }).wrap(tool);
  let id = 0;
  const ctx = () => ({ toolCallId: `c${id++}` });

  const bench = new Bench({ name: 'call gate', time: options.time ?? 500 });
  bench
    .add('direct tool.execute', async () => { await tool.execute(PARAMS, ctx()); })
    .add('gate, zero hooks', async () => { await zeroHooks.execute(PARAMS, ctx()); })
    .add('gate, 3 hooks', async () => { await threeHooks.execute(PARAMS, ctx()); })
    .add('gate, loop detection on', async () => { await loopOn.execute(PARAMS, ctx()); });
  await bench.run();

  const medians: Record<string, number> = {};
  for (const task of bench.tasks) {
    const result = task.result as { latency?: { p50?: number } } | undefined;
    medians[task.name] = (result?.latency?.p50 ?? Number.NaN) * 1e6; // ms → ns
  }
  const base = medians['direct tool.execute'];
  const ratios = Object.fromEntries(Object.entries(medians).map(([name, ns]) => [name, Number((ns / base).toFixed(2))]));
  return { unit: 'ns (median latency)', medians, ratiosToDirect: ratios, table: bench.table() };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await runGateBench();
  const medians = report.medians as Record<string, number>;
  const ratios = report.ratiosToDirect as Record<string, number>;
  console.table(Object.keys(medians).map((task) => ({ task, 'median (ns)': Math.round(medians[task]), 'x direct': ratios[task] })));
}
