/**
 * `npm run bench`: every suite in one process, each reported with its ratios. Suites that
 * need a service (Docker, sshd) say so and are skipped when it is absent.
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
import { runReadBench } from './read.bench.js';
import { runSandboxBench } from './sandbox.bench.js';
import { runSkillsBench } from './skills.bench.js';
import { runSshSyncBench } from './ssh-sync.bench.js';

const suites: [string, () => Promise<unknown>][] = [
  ['policy', runPolicyBench],
  ['assembly', runAssemblyBench],
  ['gate', runGateBench],
  ['host', () => runHostBench()],
  ['read', runReadBench],
  ['fs-integrity', runFsIntegrityBench],
  ['exec', runExecBench],
  ['mcp', runMcpBench],
  ['mcp-bridge', runMcpBridgeBench],
  ['tool-search', runToolSearchBench],
  ['message', () => runMessageBench()],
  ['sandbox', runSandboxBench],
  ['confinement', runConfinementBench],
  ['skills', runSkillsBench],
  ['automations', runAutomationsBench],
  ['ssh-sync', () => runSshSyncBench()],
];

const only = process.argv.slice(2);
for (const [name, run] of suites) {
  if (only.length > 0 && !only.includes(name)) continue;
  try {
    const result = await run();
    console.log(`\n== ${name}\n${JSON.stringify(result, null, 2)}`);
  } catch (error) {
    console.log(`\n== ${name}: not run (${(error as Error).message})`);
  }
}
