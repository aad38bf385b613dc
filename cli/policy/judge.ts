/** `pincer policy test`: one expected run judged against a started kernel, each difference with its reason. */
import { labelOf, runOf, type RunExpectation } from './expectations.js';
import { describeRemoval, type PolicyKernel } from './snapshot.js';

export interface Failure { tool: string; expected: 'present' | 'absent'; reason: string }
export interface RunReport { label: string; run: ReturnType<typeof runOf>; ok: boolean; failures: Failure[] }

/** One run's tools against what it must and must not have. */
export function judge(kernel: PolicyKernel, expectation: RunExpectation): RunReport {
  const run = runOf(expectation);
  const set = kernel.toolSet(run);
  if ('error' in set) {
    const refused = (expected: Failure['expected']) => (tool: string): Failure => ({ tool, expected, reason: `the run is refused: ${set.error}` });
    const failures = [...expectation.mustHave.map(refused('present')), ...expectation.mustNotHave.map(refused('absent'))];
    return { label: labelOf(expectation), run, ok: false, failures };
  }
  const failures: Failure[] = [];
  for (const tool of expectation.mustHave) {
    const e = set.explain(tool);
    if (!e.present) {
      const reason = 'removal' in e ? `removed by ${describeRemoval(e.removal)}` : 'unavailable' in e ? `its plugin ${e.plugin.id} is ${e.plugin.state}` : 'no enabled plugin serves it';
      failures.push({ tool, expected: 'present', reason });
    }
  }
  for (const tool of expectation.mustNotHave) {
    const e = set.explain(tool);
    if (e.present) failures.push({ tool, expected: 'absent', reason: `present: every layer admits it (${e.layersPassed.join(', ') || 'none applies'})` });
  }
  return { label: labelOf(expectation), run, ok: failures.length === 0, failures };
}
