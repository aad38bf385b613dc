/**
 * `exec` of a trivial command through the local backend, as a ratio to a bare spawn of
 * `/bin/sh -c true` in the same run: the price of cwd admission, the start gate (one more
 * exec), reaper registration, group kill and the output transcript; then of the exec tool
 * handler (formatting) on top, and with its output reported as progress (the listener chain a
 * kernel call sets up: the backend's report gathering and the shell's labelling).
 * Run: `npx tsc -p tsconfig.json && node dist/bench/exec.bench.js`.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import type { WorkspaceService } from '../protocol/index.js';
import { LocalWorkspace } from '../plugins/sandbox-local/src/local-workspace.js';
import { execReportingOutput } from '../sdk/sandbox/shell/output-reports.js';
import { RunJournal } from '../plugins/shell/src/runs/journal.js';
import { ExecParams, runExec } from '../plugins/shell/src/tools/exec.js';
import { measure, printTable, ratio } from './lib/measure.js';

export interface ExecBenchReport {
  unit: 'µs (median latency)';
  medians: Record<string, number>;
  ratiosToBareSpawn: Record<string, number>;
}

export async function runExecBench(options: { timeMs?: number } = {}): Promise<ExecBenchReport> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'pincer-exec-bench-')));
  try {
    const workspace = new LocalWorkspace({ workspaceDir: dir });
    const signal = new AbortController().signal;
    const params = ExecParams.parse({ command: 'true' });
    const journal = new RunJournal();
    // What the backend does for a call with a progress token, in process: reports gathered, then labelled by the shell.
    const reporting: WorkspaceService = Object.assign(Object.create(workspace) as LocalWorkspace, {
      exec: (command: string, options: Parameters<WorkspaceService['exec']>[1], s?: AbortSignal, onOutput?: Parameters<WorkspaceService['exec']>[3]) =>
        execReportingOutput(workspace, { command, options }, { signal: s, progress: onOutput && ((value) => onOutput(value.output)) }),
    });
    const results = await measure(
      {
        'bare execa /bin/sh -c true': () => execa('/bin/sh', ['-c', 'true'], { cwd: dir, reject: false }),
        'LocalWorkspace.exec': () => workspace.exec('true', {}, signal),
        'exec tool handler → LocalWorkspace': () => runExec(params, { workspace, signal }, journal),
        'exec tool handler, output reported': () => runExec(params, { workspace: reporting, signal, progress: () => undefined }, journal),
      },
      { timeMs: options.timeMs ?? 1_500 },
    );
    const base = results['bare execa /bin/sh -c true']!;
    const medians: Record<string, number> = {};
    const ratios: Record<string, number> = {};
    for (const [name, m] of Object.entries(results)) {
      medians[name] = Math.round(m.medianUs * 10) / 10;
      ratios[name] = ratio(m, base);
    }
    return { unit: 'µs (median latency)', medians, ratiosToBareSpawn: ratios };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await runExecBench();
  printTable(
    'exec of `true` on the local backend',
    Object.keys(report.medians).map((task) => ({ task, 'median (µs)': report.medians[task]!, 'x bare spawn': report.ratiosToBareSpawn[task]! })),
  );
}
