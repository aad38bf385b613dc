/**
 * The kernel's hot paths, side by side with one bare JSON-RPC round trip to a plugin child:
 * - assembly of a realistic run: 60 tools from 8 lazy plugins (contributions from static
 *   manifests, so nothing is spawned), every policy layer populated, warm and with a new
 *   run shape each time;
 * - a kernel-mediated call (gate without hooks + RPC) vs the same bare request;
 * - `read` of a small file through kernel → fs plugin → local backend plugin vs `fs.readFile`.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createKernel, defaultConfig, type PincerConfig } from '../kernel/index.js';
import { CORE_TOOL_DEFINITIONS } from '../protocol/vocabulary/index.js';
import { ECHO_PLUGIN, PLAIN_PLUGIN, startBareChild } from './lib/bare-rpc.js';
import { measure, printTable, ratio } from './lib/measure.js';

const quiet = () => undefined;

/** 8 plugins × ~7-8 tools: core tool ids spread over 5 plugins, plugin-only tools over 3. */
function lazyPlugins(dir: string): NonNullable<PincerConfig['plugins']> {
  const core = CORE_TOOL_DEFINITIONS.map((t) => t.id).slice(0, 36);
  const perPlugin = Array.from({ length: 8 }, (_, i) => (i < 5 ? core.slice(i * 7, i * 7 + 7 + (i === 4 ? 1 : 0)) : Array.from({ length: 8 }, (_, j) => `p${i}_tool_${j}`)));
  return perPlugin.map((names, i) => {
    const id = `plugin-${i}`;
    const manifest = path.join(dir, `${id}.json`);
    const tools = names.map((name) => ({ name, description: `${name} tool`, family: 'bench', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }));
    writeFileSync(manifest, JSON.stringify({ id, version: '1.0.0', protocolVersion: 1, contributes: { tools, sandboxBackends: [], skillSources: [], hooks: [] } }));
    return { id, module: ECHO_PLUGIN, manifest, lazy: true };
  });
}

const policyConfig: Omit<PincerConfig, 'plugins'> = {
  tools: {
    profile: 'coding', alsoAllow: ['plugin-5', 'p6_*'], deny: ['gateway'],
    byProvider: { openai: { profile: 'coding', alsoAllow: ['group:plugins'] }, 'openai/gpt-5': { deny: ['browser'] } },
    toolsBySender: { 'id:u1': { deny: ['write'] } }, sandbox: { tools: { alsoAllow: ['group:plugins'] } }, subagents: { maxSpawnDepth: 3 },
  },
  groups: { g1: { tools: { deny: ['edit'] } } },
  agents: { list: [{ id: 'main', tools: { deny: ['ls'], byProvider: { openai: { deny: ['process'] } } }, sandbox: { mode: 'all', backend: 'local' } }] },
};

export async function runAssemblyBench() {
  const dir = mkdtempSync(path.join(tmpdir(), 'pincer-bench-'));
  const kernel = createKernel({ ...policyConfig, plugins: lazyPlugins(dir) }, { logger: quiet });
  await kernel.start();
  const run = { agentId: 'main', provider: 'openai', model: 'gpt-5', groupId: 'g1', sender: { id: 'u1' }, subagentDepth: 1 };
  const inherited = kernel.assembleTools(run).effectiveAllowlist;
  const fullRun = { ...run, inheritedAllowlist: [...inherited] };
  const shape = kernel.assembleTools(fullRun);
  let n = 0;

  const echoKernel = createKernel({ plugins: [{ id: 'plain', module: PLAIN_PLUGIN }] }, { logger: quiet });
  await echoKernel.start();
  const echoTools = echoKernel.assembleTools();
  const bare = await startBareChild();
  const workspace = mkdtempSync(path.join(tmpdir(), 'pincer-bench-ws-'));
  writeFileSync(path.join(workspace, 'small.txt'), 'hello pincer\n'.repeat(40));
  const fsKernel = createKernel(defaultConfig({ cwd: workspace }), { logger: quiet });
  await fsKernel.start();
  const fsTools = fsKernel.assembleTools();
  await fsTools.execute('read', { path: 'small.txt' }); // start the lazy plugins outside the measurement

  const r = await measure({
    'bare JSON-RPC round trip': () => bare.call(),
    'assembly, warm (60 tools, 8 plugins, 11 layers)': () => kernel.assembleTools(fullRun),
    'assembly, new run shape each time': () => kernel.assembleTools({ ...fullRun, sender: { id: `u${n++}` } }),
    'kernel-mediated call (gate, no hooks)': () => echoTools.execute('echo', { a: 1 }),
    'fs.readFile of a small file': () => readFile(path.join(workspace, 'small.txt'), 'utf8'),
    'read tool: kernel → fs plugin → local backend': () => fsTools.execute('read', { path: 'small.txt' }),
  });
  await fsKernel.stop();
  bare.close();
  await echoKernel.stop();
  await kernel.stop();
  const rows = Object.values(r).map((m) => ({ task: m.name, 'median µs': Math.round(m.medianUs * 10) / 10 }));
  return {
    rows,
    tools: shape.tools.length,
    layers: shape.removed.length >= 0 ? new Set(shape.removed.map((x) => x.layer)).size : 0,
    ratios: {
      warmAssemblyVsRoundTrip: ratio(r['assembly, warm (60 tools, 8 plugins, 11 layers)'], r['bare JSON-RPC round trip']),
      newShapeAssemblyVsRoundTrip: ratio(r['assembly, new run shape each time'], r['bare JSON-RPC round trip']),
      kernelCallVsBareRpc: ratio(r['kernel-mediated call (gate, no hooks)'], r['bare JSON-RPC round trip']),
      readToolVsReadFile: ratio(r['read tool: kernel → fs plugin → local backend'], r['fs.readFile of a small file']),
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runAssemblyBench();
  printTable('assembly and calls', result.rows);
  console.log('ratios (lower is faster):', result.ratios, `tools surviving: ${result.tools}`);
}
