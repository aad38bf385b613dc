/**
 * Assembly as the surface grows: lazy plugins from static manifests (nothing spawned), 75 tools
 * each, a policy with globs, plugin ids, `group:plugins` and a group layer.
 * - per-tool cost of a new run shape at 20,000 tools against the same at 600 (linear: ≤ 1.5×);
 * - a run shape already seen, at 600 and 20,000 tools, in microseconds (≤ 50 µs whatever the size).
 * Each assembly also reads its tool list, as a model runner does.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/assembly.bench.js`.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createKernel, type PincerConfig } from '../kernel/index.js';
import { ECHO_PLUGIN } from './lib/bare-rpc.js';
import { measure, ratio } from './lib/measure.js';
import { printRows, us, type SuiteReport } from './lib/report.js';
import { quietLogger, scratchDir } from './lib/scratch.js';

const TOOLS_PER_PLUGIN = 75;
const SIZES = [600, 20_000] as const;

function manifestPlugins(dir: string, tools: number): NonNullable<PincerConfig['plugins']> {
  return Array.from({ length: Math.ceil(tools / TOOLS_PER_PLUGIN) }, (_, i) => {
    const id = `plugin-${i}`;
    const manifest = path.join(dir, `${id}-${tools}.json`);
    const contributed = Array.from({ length: TOOLS_PER_PLUGIN }, (_, j) => ({ name: `p${i}_tool_${j}`, description: 'bench tool', family: 'bench', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } }));
    writeFileSync(manifest, JSON.stringify({ id, version: '1.0.0', protocolVersion: 1, contributes: { tools: contributed, sandboxBackends: [], skillSources: [], hooks: [] } }));
    return { id, module: ECHO_PLUGIN, manifest, lazy: true };
  });
}

const policy: Omit<PincerConfig, 'plugins'> = {
  tools: { profile: 'coding', alsoAllow: ['group:plugins'], deny: ['p1_*', 'plugin-2', '*_tool_7'] },
  groups: { g1: { tools: { deny: ['p3_tool_1*'] } } },
  agents: { list: [{ id: 'main', tools: { deny: ['p4_tool_2'] } }] },
};

export async function runAssemblyBench(options: { timeMs?: number } = {}): Promise<SuiteReport> {
  const scratch = scratchDir('assembly-scale');
  const manifests = scratchDir('assembly-manifests'); // outside the workspace: no plugin file may lie inside one
  const timeMs = options.timeMs ?? 1_500;
  const kernels: { stop(): Promise<void> }[] = [];
  try {
    const tasks: Record<string, () => unknown> = {};
    const counts: Record<number, number> = {};
    for (const size of SIZES) {
      const kernel = createKernel({ ...policy, plugins: manifestPlugins(manifests.dir, size) }, { logger: quietLogger, cwd: scratch.dir });
      await kernel.start();
      kernels.push(kernel);
      const run = { agentId: 'main', provider: 'openai', model: 'gpt-5', groupId: 'g1' };
      counts[size] = kernel.assembleTools(run).tools.length;
      let n = 0;
      // A runtime allowlist no earlier run had: new steps, so nothing of the policy result is reused.
      tasks[`new shape ${size}`] = () => kernel.assembleTools({ ...run, toolsAllow: ['*', `absent_${n++}`] }).tools.length;
      tasks[`seen shape ${size}`] = () => kernel.assembleTools(run).tools.length;
    }
    const m = await measure(tasks, { timeMs, minIterations: 3 });
    const [small, large] = SIZES;
    const perTool = (size: number) => m[`new shape ${size}`]!.medianUs / size;
    const growth = { ...m[`new shape ${large}`]!, roundsUs: m[`new shape ${large}`]!.roundsUs.map((v) => v / large) };
    const base = { ...m[`new shape ${small}`]!, roundsUs: m[`new shape ${small}`]!.roundsUs.map((v) => v / small) };
    const rows: SuiteReport['rows'] = [
      { suite: 'assembly', measure: `per-tool cost of a new run shape, ${large} vs ${small} tools`, value: ratio(growth, base), figure: `${perTool(large).toFixed(2)} vs ${perTool(small).toFixed(2)} µs per tool (${counts[large]} and ${counts[small]} kept)`, target: { op: '<=', value: 1.5 } },
      ...SIZES.map((size) => ({ suite: 'assembly', measure: `run shape already seen, ${size} tools`, value: m[`seen shape ${size}`]!.medianUs, unit: 'µs' as const, figure: us(m[`seen shape ${size}`]!.medianUs), target: { op: '<=' as const, value: 50 } })),
    ];
    return { rows, detail: m };
  } finally {
    for (const kernel of kernels) await kernel.stop();
    scratch.remove();
    manifests.remove();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  printRows((await runAssemblyBench()).rows);
}
