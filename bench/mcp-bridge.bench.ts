/**
 * What the MCP bridge adds to a call: `everything__echo` through the kernel (gate → bridge plugin
 * process → server-everything over stdio) against a direct MCP SDK client call of `echo` on its
 * own server-everything process, side by side in one run (goal: ratio ≤ 1.3). The bridged call
 * is also measured without the gate (`host.invokeTool`), to tell the bridge's share from the
 * gate's; a bridged call crosses two process boundaries where the direct one crosses one.
 * Run: `npx tsc -p tsconfig.json && node dist/bench/mcp-bridge.bench.js`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createKernel } from '../kernel/index.js';
import { measure, printTable, ratio } from './lib/measure.js';

const ROOT = resolve(import.meta.dirname, '../..');
const EVERYTHING = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

export async function runMcpBridgeBench(options: { timeMs?: number } = {}) {
  const state = mkdtempSync(join(tmpdir(), 'pincer-bridge-bench-'));
  process.env.PINCER_STATE_DIR = state;
  const kernel = createKernel({ plugins: [], tools: { profile: 'coding' }, mcp: { servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } } }, { logger: () => undefined });
  const direct = new Client({ name: 'bench-direct', version: '1' });
  try {
    await kernel.start();
    await direct.connect(new StdioClientTransport({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore' }));
    let toolSet = kernel.assembleTools({});
    for (let i = 0; i < 400 && !toolSet.tools.some((t) => t.name === 'everything__echo'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      toolSet = kernel.assembleTools({});
    }
    const check = (text: string) => {
      // A bench that silently measures an error path is worse than none.
      if (!text.includes('Echo: bench')) throw new Error(`echo returned unexpected content: ${text.slice(0, 200)}`);
    };
    let n = 0;
    const results = await measure(
      {
        'direct MCP SDK client callTool': async () => check(JSON.stringify((await direct.callTool({ name: 'echo', arguments: { message: 'bench' } })).content)),
        'bridged host.invokeTool (no gate)': async () => check(JSON.stringify((await kernel.host.invokeTool('mcp-bridge', 'everything__echo', { message: 'bench' })).content)),
        'bridged toolSet.execute (kernel → bridge → server)': async () => check(JSON.stringify((await toolSet.execute('everything__echo', { message: 'bench' }, { toolCallId: `b${n++}` })).content)),
      },
      { timeMs: options.timeMs ?? 1_500 },
    );
    const [directCall, ungated, bridged] = Object.values(results);
    return {
      unit: 'µs (median latency)',
      directUs: Math.round(directCall.medianUs),
      bridgedNoGateUs: Math.round(ungated.medianUs),
      bridgedUs: Math.round(bridged.medianUs),
      ratioNoGateToDirect: ratio(ungated, directCall),
      ratioToDirect: ratio(bridged, directCall),
      goal: 1.3,
    };
  } finally {
    await direct.close().catch(() => undefined);
    await kernel.stop().catch(() => undefined);
    rmSync(state, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await runMcpBridgeBench();
  printTable('MCP bridge: bridged call vs direct SDK client call', [report]);
}
