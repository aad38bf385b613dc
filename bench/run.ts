/**
 * `npm run bench`: every suite in one process and one table, target beside figure, each figure
 * a ratio against its baseline measured in the same run. `npm run bench -- --runs=3` repeats
 * every suite and prints the median with the spread (lowest–highest); `--json` also prints the
 * raw rows. Suite names as arguments run only those suites. A suite that needs an absent
 * service (Docker, sshd) or reference says so on its row.
 */
import { runAssemblyBench } from './assembly.bench.js';
import { runAutomationsBench } from './automations.bench.js';
import { runConfinementBench } from './confinement.bench.js';
import { runFsIntegrityBench } from './fs-integrity.bench.js';
import { runExecBench } from './exec.bench.js';
import { runGateBench } from './gate.bench.js';
import { runHostBench } from './host.bench.js';
import { runMcpBench } from './mcp.bench.js';
import { runMcpBridgeBench } from './mcp-bridge.bench.js';
import { runToolSearchBench } from './mcp-tool-search.bench.js';
import { runMessageBench } from './message.bench.js';
import { runPolicyBench } from './policy.bench.js';
import { KERNEL_READ, runReadBench } from './read.bench.js';
import { runSandboxBench } from './sandbox.bench.js';
import { runServeLoadBench } from './serve-load.js';
import { runSkillsBench } from './skills.bench.js';
import { runSshSyncBench } from './ssh-sync.bench.js';
import { median } from './lib/measure.js';
import { formatValue, meets, type BenchRow } from './lib/report.js';
import { execRows, fsIntegrityRows, gateRows, mcpRows, messageRows, policyRows, readRows, sandboxRows, skillsRows } from './lib/suite-rows.js';

/** A suite that prints its own table (ratios in its own baseline): one row pointing at it. */
async function printedOwn(suite: string, run: () => Promise<unknown>): Promise<BenchRow[]> {
  // Some print a table as they go; what they return (figures and ratios) is printed here, or it was lost.
  const report = await run();
  if (report !== undefined) console.log(`\n${suite}\n${JSON.stringify(report, null, 2)}`);
  return [{ suite, measure: 'its own table, printed above', value: undefined, figure: '', note: 'see above' }];
}

const suites: [string, () => Promise<BenchRow[]>][] = [
  ['policy', async () => policyRows(await runPolicyBench())],
  ['assembly', async () => (await runAssemblyBench()).rows],
  ['gate', async () => gateRows((await runGateBench()) as Parameters<typeof gateRows>[0])],
  ['host', async () => (await runHostBench()).rows],
  ['read', async () => readRows(await runReadBench(), KERNEL_READ)],
  ['fs-integrity', async () => fsIntegrityRows(await runFsIntegrityBench())],
  ['exec', async () => execRows(await runExecBench())],
  ['mcp', async () => mcpRows(await runMcpBench())],
  ['serve-load', () => runServeLoadBench()],
  ['message', async () => messageRows((await runMessageBench()) as Parameters<typeof messageRows>[0])],
  ['sandbox', async () => sandboxRows((await runSandboxBench()) as Parameters<typeof sandboxRows>[0])],
  ['skills', async () => skillsRows(await runSkillsBench())],
  ['mcp-bridge', () => printedOwn('mcp-bridge', runMcpBridgeBench)],
  ['tool-search', () => printedOwn('tool-search', runToolSearchBench)],
  ['confinement', () => printedOwn('confinement', runConfinementBench)],
  ['automations', () => printedOwn('automations', runAutomationsBench)],
  ['ssh-sync', () => printedOwn('ssh-sync', () => runSshSyncBench())],
];

const args = process.argv.slice(2);
const runs = Math.max(1, Number(args.find((a) => a.startsWith('--runs='))?.slice('--runs='.length) ?? 1) || 1);
const only = args.filter((a) => !a.startsWith('--'));

/** Every row of every run, by suite and measure, in first-seen order. */
const collected = new Map<string, BenchRow[]>();
for (let run = 0; run < runs; run++) {
  for (const [name, suite] of suites) {
    if (only.length > 0 && !only.includes(name)) continue;
    let rows: BenchRow[];
    try {
      rows = await suite();
    } catch (error) {
      rows = [{ suite: name, measure: 'suite', value: undefined, figure: '', note: `not run: ${(error as Error).message.split('\n')[0]!.slice(0, 120)}` }];
    }
    for (const row of rows) {
      const key = `${row.suite}\u0000${row.measure}`;
      collected.set(key, [...(collected.get(key) ?? []), row]);
    }
    process.stderr.write(`bench: ${name} done (run ${run + 1}/${runs})\n`);
  }
}

const table = [...collected.values()].map((rows) => {
  const first = rows[0]!;
  const values = rows.map((r) => r.value).filter((v): v is number => v !== undefined && !Number.isNaN(v));
  const value = values.length > 0 ? median(values) : undefined;
  const spread = values.length > 1 ? `${formatValue(Math.min(...values), first.unit)}–${formatValue(Math.max(...values), first.unit)}` : '';
  const met = meets({ value, target: first.target });
  const everyRun = values.length > 1 && first.target ? values.every((v) => meets({ value: v, target: first.target })) : undefined;
  return {
    suite: first.suite,
    measure: first.measure,
    value: value === undefined ? (first.note ?? '—') : formatValue(value, first.unit),
    ...(runs > 1 ? { spread } : {}),
    target: first.target ? `${first.target.op === '<=' ? '≤' : '≥'} ${formatValue(first.target.value, first.unit)}` : '',
    met: met === undefined ? '' : `${met ? 'yes' : 'NO'}${everyRun === false && met ? ' (not every run)' : ''}`,
    figure: rows[rows.length - 1]!.figure,
  };
});
console.table(table);
if (args.includes('--json')) console.log(JSON.stringify([...collected.values()], null, 2));
