/**
 * What bubblewrap costs: a confined plugin's cold start (kernel start → first answered call →
 * stop) and call latency against the same plugin unconfined, and a local `exec` in
 * `workspace-write` against `danger-full-access`. Reported as ratios (docs/confinement.md).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createKernel, defaultConfig, type Kernel, type PincerConfig } from '../kernel/index.js';
import { ECHO_PLUGIN } from './lib/bare-rpc.js';
import { measure, printTable, ratio } from './lib/measure.js';

const quiet = () => undefined;
const dir = mkdtempSync(path.join(tmpdir(), 'pincer-bench-confine-'));
const workspace = mkdtempSync(path.join(tmpdir(), 'pincer-bench-confine-ws-'));

function echoConfig(confined: boolean): PincerConfig {
  const manifest = path.join(dir, 'echo.json');
  writeFileSync(manifest, JSON.stringify({ id: 'echo', version: '1.0.0', protocolVersion: 1, contributes: { tools: [], sandboxBackends: [], skillSources: [], hooks: [] }, confinement: { network: 'none' } }));
  return { plugins: [{ id: 'echo', module: ECHO_PLUGIN, manifest, ...(confined ? {} : { dangerouslyUnconfined: true }) }], agents: { list: [{ id: 'main', workspace }] } } as PincerConfig;
}

function execConfig(mode: 'workspace-write' | 'danger-full-access'): PincerConfig {
  const base = defaultConfig({ cwd: workspace });
  const plugins = (base.plugins ?? []).map((p) => (p.id === 'sandbox-local' ? { ...p, settings: { exec: { mode } } } : p));
  return { ...base, plugins, agents: { list: [{ id: 'main', workspace }] } } as PincerConfig;
}

async function started(config: PincerConfig): Promise<Kernel> {
  const kernel = createKernel(config, { logger: quiet, cwd: dir });
  await kernel.start();
  return kernel;
}

export async function runConfinementBench() {
  const coldStart = (confined: boolean) => async () => {
    const kernel = await started(echoConfig(confined));
    await kernel.assembleTools({ agentId: 'main' }).execute('echo', { a: 1 });
    await kernel.stop();
  };
  const cold = await measure({ 'cold start, confined': coldStart(true), 'cold start, unconfined': coldStart(false) }, { timeMs: 4_000 });

  const [confined, unconfined] = await Promise.all([started(echoConfig(true)), started(echoConfig(false))]);
  const [confinedTools, unconfinedTools] = [confined, unconfined].map((k) => k.assembleTools({ agentId: 'main' }));
  const call = await measure({ 'call, confined': () => confinedTools!.execute('echo', { a: 1 }), 'call, unconfined': () => unconfinedTools!.execute('echo', { a: 1 }) });
  await Promise.all([confined.stop(), unconfined.stop()]);

  const [ww, full] = await Promise.all([started(execConfig('workspace-write')), started(execConfig('danger-full-access'))]);
  const [wwTools, fullTools] = [ww, full].map((k) => k.assembleTools({ agentId: 'main' }));
  const exec = await measure({ 'exec true, workspace-write': () => wwTools!.execute('exec', { command: 'true' }), 'exec true, danger-full-access': () => fullTools!.execute('exec', { command: 'true' }) }, { timeMs: 2_000 });
  await Promise.all([ww.stop(), full.stop()]);

  const rows = [cold, call, exec].flatMap((m) => Object.values(m).map((r) => ({ task: r.name, medianUs: Math.round(r.medianUs), samples: r.samples })));
  printTable('confinement', rows);
  return {
    coldStartConfinedVsUnconfined: ratio(cold['cold start, confined']!, cold['cold start, unconfined']!),
    callConfinedVsUnconfined: ratio(call['call, confined']!, call['call, unconfined']!),
    execWorkspaceWriteVsDangerFullAccess: ratio(exec['exec true, workspace-write']!, exec['exec true, danger-full-access']!),
  };
}
