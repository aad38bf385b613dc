/**
 * Table rows from the suites that report their own shape (medians and ratio maps), so
 * `npm run bench` prints every measure in one table; the issue-16 targets sit on their rows.
 */
import type { BenchRow, Target } from './report.js';

type Ratios = Record<string, number>;

const rowsOfRatios = (suite: string, ratios: Ratios | undefined, what: string, targets: Record<string, Target> = {}): BenchRow[] =>
  Object.entries(ratios ?? {})
    .filter(([, value]) => value !== 1 || Object.keys(ratios ?? {}).length === 1) // the baseline's own 1.00× says nothing
    .map(([name, value]) => ({ suite, measure: `${name} ${what}`.trim(), value, figure: '', target: targets[name] }));

export function gateRows(report: { medians: Ratios; ratiosToDirect: Ratios }): BenchRow[] {
  const loopUs = report.medians['gate, loop detection on']! / 1000;
  return [
    ...rowsOfRatios('gate', report.ratiosToDirect, 'vs a direct tool.execute'),
    { suite: 'gate', measure: 'gate with loop detection on, per call', value: loopUs, unit: 'µs', figure: `${Math.round(report.medians['gate, loop detection on']!)} ns`, target: { op: '<=', value: 5 } },
  ];
}

export function policyRows(report: { ratios: Ratios; expandToolGroups?: { value?: number; figure: string } }): BenchRow[] {
  return [
    ...rowsOfRatios('policy', report.ratios, ''),
    {
      suite: 'policy',
      measure: 'expandToolGroups vs the reference release, same process',
      value: report.expandToolGroups?.value,
      figure: report.expandToolGroups?.figure ?? '',
      target: { op: '<=', value: 0.5 },
      note: report.expandToolGroups?.value === undefined ? 'reference not available (set PINCER_REFERENCE_DIST)' : undefined,
    },
  ];
}

export function readRows(report: { medians: Ratios; ratiosToReadFile: Ratios }, kernelRead: string): BenchRow[] {
  const base = report.medians['fs.readFile (direct)'];
  return rowsOfRatios('read', report.ratiosToReadFile, 'vs fs.readFile', { [kernelRead]: { op: '<=', value: 3 } }).map((row) => {
    const name = row.measure.replace(/ vs fs\.readFile$/, '');
    return { ...row, figure: `${report.medians[name]} vs ${base} µs` };
  });
}

export function mcpRows(report: { medians: Ratios; ratiosToDirect: Ratios }): BenchRow[] {
  return rowsOfRatios('mcp', report.ratiosToDirect, 'vs toolSet.execute in process', { 'MCP tools/call stdio (pincer serve)': { op: '<=', value: 1.2 } });
}

export const execRows = (report: { ratiosToBareSpawn: Ratios }): BenchRow[] => rowsOfRatios('exec', report.ratiosToBareSpawn, 'vs a bare spawn of sh -c true');
export const fsIntegrityRows = (report: { ratios: Ratios }): BenchRow[] => rowsOfRatios('fs-integrity', report.ratios, '');
export const skillsRows = (report: { ratios: Ratios }): BenchRow[] => rowsOfRatios('skills', report.ratios, '');

export function messageRows(report: { directAppendUs: number; kernelSendUs: number; ratio: number }): BenchRow[] {
  return [{ suite: 'message', measure: 'message send through the kernel vs a direct durable append', value: report.ratio, figure: `${report.kernelSendUs} vs ${report.directAppendUs} µs` }];
}

export function sandboxRows(report: { docker?: { ratios?: Ratios }; ssh?: { ratios?: Ratios } }): BenchRow[] {
  const rows = [...rowsOfRatios('sandbox', report.docker?.ratios, '(docker)'), ...rowsOfRatios('sandbox', report.ssh?.ratios, '(ssh)')];
  return rows.length > 0 ? rows : [{ suite: 'sandbox', measure: 'docker and ssh backends', value: undefined, figure: '', note: 'no Docker engine or sshd reachable' }];
}
