/**
 * `read` of a small file through the local backend, as a ratio to a direct
 * `fs.readFile` of the same file in the same run: the price of path admission
 * (mapping, realpath, mount re-lookup), the verified fd and the byte cap, and
 * then of the fs tool handler on top. The kernel → plugin → backend version is
 * added by the integrator.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/read.bench.js`.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LocalWorkspace } from '../plugins/sandbox-local/src/local-workspace.js';
import { runRead, ReadParams } from '../plugins/fs/src/tools/read.js';
import { measure, printTable, ratio } from './lib/measure.js';

const SMALL_FILE = `${'export const answer = 42;\n'.repeat(40)}`; // ~1 KiB of source

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
    const results = await measure(
      {
        'fs.readFile (direct)': () => fs.readFile(file, 'utf8'),
        'LocalWorkspace.read': () => workspace.read('src/small.ts', {}, signal),
        'read tool handler → LocalWorkspace': () => runRead(params, { workspace, signal }),
      },
      { timeMs: options.timeMs },
    );
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
