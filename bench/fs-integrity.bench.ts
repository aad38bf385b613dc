/**
 * What the fs tools' integrity costs, as ratios within one run on the local backend:
 * the crash-recovery check every fs call makes (a look for pending patch journals), an
 * edit that reads raw bytes and writes back over the version it read, against a plain
 * read + write, and a two-file apply_patch (journaled, fsynced) against two single edits.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/fs-integrity.bench.js`.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { LocalWorkspace } from '../plugins/sandbox-local/src/local-workspace.js';
import { JournalStore } from '../plugins/fs/src/journal/store.js';
import { FS_TOOLS } from '../plugins/fs/src/tools.js';
import { EditParams, runEdit } from '../plugins/fs/src/tools/edit.js';
import { ApplyPatchParams, runApplyPatch } from '../plugins/fs/src/tools/apply-patch.js';
import { ReadParams, runRead } from '../plugins/fs/src/tools/read.js';
import { measure, printTable, ratio } from './lib/measure.js';

const SOURCE = `${'export const answer = 42;\n'.repeat(40)}`; // ~1 KiB

export interface FsIntegrityBenchReport {
  unit: 'µs (median latency)';
  medians: Record<string, number>;
  ratios: Record<string, number>;
}

export async function runFsIntegrityBench(options: { timeMs?: number } = {}): Promise<FsIntegrityBenchReport> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'pincer-fs-bench-')));
  try {
    for (const name of ['a.ts', 'b.ts', 'c.ts']) await fs.writeFile(path.join(dir, name), SOURCE.replace('42', '0'));
    const workspace = new LocalWorkspace({ workspaceDir: path.join(dir) });
    const journals = new JournalStore(path.join(dir, '..', `${path.basename(dir)}-journal`));
    const ctx = { workspace, signal: new AbortController().signal, journals, call: { sessionKey: 'bench' } };
    const readTool = FS_TOOLS.find((t) => t.name === 'read')!;
    const readParams = ReadParams.parse({ path: 'a.ts' });
    // Every task changes `answer = 0` to 1 and back, so each run finds the text it needs.
    const edit = (file: string, from: string, to: string) => runEdit(EditParams.parse({ path: file, oldText: `answer = ${from}`, newText: `answer = ${to}` }), ctx);
    const plain = async (from: string, to: string) => {
      const file = await workspace.read('c.ts', {}, ctx.signal);
      await workspace.write('c.ts', file.content.replace(`answer = ${from}`, `answer = ${to}`), {}, ctx.signal);
    };
    const patch = (from: string, to: string) =>
      runApplyPatch(ApplyPatchParams.parse({ input: ['*** Begin Patch', ...['a.ts', 'b.ts'].flatMap((f) => [`*** Update File: ${f}`, '@@', `-export const answer = ${from};`, `+export const answer = ${to};`]), '*** End Patch'].join('\n') }), ctx);
    const results = await measure(
      {
        'read handler': () => runRead(readParams, ctx),
        'read tool (with the recovery check)': () => readTool.handler(readParams, ctx as never),
        'plain read + write, there and back': async () => (await plain('0', '1'), await plain('1', '0')),
        'edit, there and back': async () => (await edit('b.ts', '0', '1'), await edit('b.ts', '1', '0')),
        'edit a.ts and b.ts, there and back': async () => {
          for (const [from, to] of [['0', '1'], ['1', '0']] as const) for (const file of ['a.ts', 'b.ts']) await edit(file, from, to);
        },
        'two-file apply_patch (journaled), there and back': async () => (await patch('0', '1'), await patch('1', '0')),
      },
      { timeMs: options.timeMs },
    );
    const m = (name: string) => results[name]!;
    const medians = Object.fromEntries(Object.entries(results).map(([name, r]) => [name, Math.round(r.medianUs * 10) / 10]));
    return {
      unit: 'µs (median latency)',
      medians,
      ratios: {
        'read tool / read handler': ratio(m('read tool (with the recovery check)'), m('read handler')),
        'edit / plain read + write': ratio(m('edit, there and back'), m('plain read + write, there and back')),
        'two-file patch / two edits': ratio(m('two-file apply_patch (journaled), there and back'), m('edit a.ts and b.ts, there and back')),
      },
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(path.join(dir, '..', `${path.basename(dir)}-journal`), { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await runFsIntegrityBench();
  printTable('fs tools integrity costs', Object.keys(report.medians).map((task) => ({ task, 'median (µs)': report.medians[task]! })));
  printTable('ratios', Object.entries(report.ratios).map(([what, r]) => ({ what, ratio: r })));
}
