/**
 * What `pincer serve` adds to a tool call: an MCP `tools/call` round trip for `read` of a small
 * file, against a direct `toolSet.execute` of the same call, measured side by side in one run.
 * Two MCP paths: in-process (MCP framing + our handler only, over the SDK's InMemoryTransport) and
 * the real thing (a `pincer serve` child over stdio, with its own kernel and plugins).
 * Run: `npx tsc -p tsconfig.json && node dist/bench/mcp.bench.js`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CliLogger } from '../cli/logger.js';
import { loadKernelApi } from '../cli/kernel.js';
import { createMcpServer } from '../cli/serve/mcp-server.js';
import { ToolBridge } from '../cli/serve/tool-bridge.js';
import { measure, ratio, WARMUP_CALLS } from './lib/measure.js';

const FILE = 'small.txt';
const CONTENT = 'a small file, read over and over\n'.repeat(8);
const CLI = fileURLToPath(new URL('../cli/main.js', import.meta.url));
const quiet: CliLogger = Object.assign(() => {}, { error() {}, warn() {}, info() {}, debug() {} });

export interface McpBenchReport {
  unit: string;
  medians: Record<string, number>;
  ratiosToDirect: Record<string, number>;
}

/** Runs the suite; medians in microseconds, ratios against the direct execute. */
export async function runMcpBench(options: { time?: number } = {}): Promise<McpBenchReport> {
  const dir = mkdtempSync(join(tmpdir(), 'pincer-mcp-bench-'));
  writeFileSync(join(dir, FILE), CONTENT);
  const api = await loadKernelApi();
  const kernel = api.createKernel(api.defaultConfig({ cwd: dir }), { logger: quiet });
  const closers: (() => Promise<unknown>)[] = [];
  try {
    await kernel.start();
    const run = { trigger: 'user' as const };
    const toolSet = kernel.assembleTools(run);

    const bridge = new ToolBridge(kernel, run, quiet);
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(bridge, { version: 'bench', logger: quiet }).connect(serverSide);
    const inProcess = new Client({ name: 'bench-inprocess', version: '1' });
    await inProcess.connect(clientSide);
    closers.push(() => inProcess.close());

    const stdio = new Client({ name: 'bench-stdio', version: '1' });
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, 'serve'], cwd: dir, stderr: 'ignore' }));
    closers.push(() => stdio.close());

    const args = { path: FILE };
    let id = 0;
    const check = (text: string) => {
      // A bench that silently measures an error path is worse than none.
      if (!text.includes('a small file')) throw new Error(`read returned unexpected content: ${text.slice(0, 200)}`);
    };
    // Alternating rounds (bench/lib/measure.ts): run one after another, the three tasks saw
    // different machine load, and the stdio row's spread (0.81–1.85×) was wider than its gap.
    const results = await measure(
      {
        'direct toolSet.execute': async () => {
          const r = await toolSet.execute('read', args, { toolCallId: `b${id++}` });
          check(JSON.stringify(r.content));
        },
        'MCP tools/call in-process': async () => {
          check(JSON.stringify((await inProcess.callTool({ name: 'read', arguments: args })).content));
        },
        'MCP tools/call stdio (pincer serve)': async () => {
          check(JSON.stringify((await stdio.callTool({ name: 'read', arguments: args })).content));
        },
      },
      // Steady state: the stdio path warms up four processes, the direct path three (see warmupCalls).
      { timeMs: options.time ?? 3000, warmupCalls: WARMUP_CALLS },
    );
    const direct = results['direct toolSet.execute']!;
    const medians = Object.fromEntries(Object.values(results).map((m) => [m.name, Math.round(m.medianUs * 10) / 10]));
    const ratiosToDirect = Object.fromEntries(Object.values(results).map((m) => [m.name, ratio(m, direct)]));
    return { unit: 'µs (median latency)', medians, ratiosToDirect };
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await kernel.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const report = await runMcpBench();
  console.table(Object.keys(report.medians).map((task) => ({ task, 'median (µs)': report.medians[task], 'x direct': report.ratiosToDirect[task] })));
}
