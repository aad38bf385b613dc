/**
 * `read` of a small file through the local backend, as a ratio to a direct
 * `fs.readFile` of the same file in the same run: the price of path admission
 * (mapping, realpath, mount re-lookup), the verified fd and the byte cap, and
 * then of the fs tool handler on top, and of the whole path: the kernel's `read` through the
 * fs plugin and the local backend plugin (real child processes), with the direct channel (the
 * default: the fs plugin reads from the backend straight) and without (through the kernel).
 * Run: `npx tsc -p tsconfig.json && node dist/bench/read.bench.js`.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LocalWorkspace } from '../plugins/sandbox-local/src/local-workspace.js';
import { runRead, ReadParams } from '../plugins/fs/src/tools/read.js';
import { createKernel, defaultConfig } from '../kernel/index.js';
import { measure, printTable, ratio, WARMUP_CALLS } from './lib/measure.js';
import { quietLogger } from './lib/scratch.js';

const SMALL_FILE = `${'export const answer = 42;\n'.repeat(40)}`; // ~1 KiB of source

/** The task the issue's `read` row compares with `fs.readFile`. */
export const KERNEL_READ = 'read tool: kernel → fs plugin → local backend';
/** The same read with the direct channel off: every workspace request through the kernel (two more hops). */
export const KERNEL_READ_ROUTED = 'read tool, direct channel off (fs plugin → kernel → backend)';

export interface ReadBenchReport {
  unit: 'µs (median latency)';
  medians: Record<string, number>;
  ratiosToReadFile: Record<string, number>;
}

export async function runReadBench(options: { timeMs?: number } = {}): Promise<ReadBenchReport> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'pincer-read-bench-')));
  try {
    await fs.mkdir(path.join(dir, 'src'));
    const file = path.join(dir, 'src', 'small.ts');
    await fs.writeFile(file, SMALL_FILE);
    const workspace = new LocalWorkspace({ workspaceDir: dir });
    const signal = new AbortController().signal;
    const params = ReadParams.parse({ path: 'src/small.ts' });
    const kernel = createKernel(defaultConfig({ cwd: dir }), { logger: quietLogger, cwd: dir });
    const routedKernel = createKernel(defaultConfig({ cwd: dir }), { logger: quietLogger, cwd: dir, directChannel: false });
    await Promise.all([kernel.start(), routedKernel.start()]);
    const readThrough = (tools: ReturnType<typeof kernel.assembleTools>) => async () => {
      const result = await tools.execute('read', { path: 'src/small.ts' });
      // A bench that silently measures an error path is worse than none.
      if (result.outcome !== 'ok' || !JSON.stringify(result.content).includes('answer = 42')) throw new Error(`read ended ${result.outcome}: ${JSON.stringify(result.content).slice(0, 200)}`);
    };
    const viaKernel = readThrough(kernel.assembleTools());
    const viaKernelRouted = readThrough(routedKernel.assembleTools());
    // Start the lazy plugins outside the measurement; the second read is the first with a direct-channel grant.
    for (const read of [viaKernel, viaKernel, viaKernelRouted]) await read();
    const results = await measure(
      {
        'fs.readFile (direct)': () => fs.readFile(file, 'utf8'),
        'LocalWorkspace.read': () => workspace.read('src/small.ts', {}, signal),
        'read tool handler → LocalWorkspace': () => runRead(params, { workspace, signal }),
        [KERNEL_READ]: viaKernel,
        [KERNEL_READ_ROUTED]: viaKernelRouted,
      },
      // Steady state: the kernel's path runs through two fresh plugin processes (see warmupCalls).
      { timeMs: options.timeMs, warmupCalls: WARMUP_CALLS },
    ).finally(() => Promise.all([kernel.stop(), routedKernel.stop()]));
    const base = results['fs.readFile (direct)']!;
    const medians: Record<string, number> = {};
    const ratios: Record<string, number> = {};
    for (const [name, m] of Object.entries(results)) {
      medians[name] = Math.round(m.medianUs * 10) / 10;
      ratios[name] = ratio(m, base);
    }
    return { unit: 'µs (median latency)', medians, ratiosToReadFile: ratios };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await runReadBench();
  printTable(
    'read of a small file (~1 KiB)',
    Object.keys(report.medians).map((task) => ({ task, 'median (µs)': report.medians[task]!, 'x fs.readFile': report.ratiosToReadFile[task]! })),
  );
}
