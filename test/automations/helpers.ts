/** A kernel with the bundled tool families and the turn plugins, in a temp workspace and state dir. */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { createKernel, type Kernel, type PincerConfig } from '../../kernel/index.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const pluginModule = (id: string): string => path.join(ROOT, 'dist/plugins', id, 'src/main.js');

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Plugin entries: the bundled fs/shell/local backend plus the named turn plugins, all eager. */
export function turnPlugins(workspace: string, ids: readonly string[] = ['sessions', 'tasks']): NonNullable<PincerConfig['plugins']> {
  return [...bundledPluginConfigs({ workspace }), ...ids.map((id) => ({ id, module: pluginModule(id) }))];
}

export interface TestKernel {
  kernel: Kernel;
  workspace: string;
  stateDir: string;
  logs: string[];
}

/** Starts a kernel whose plugins keep their data under `stateDir` (a fresh one unless given). */
export async function startKernel(config: (workspace: string) => PincerConfig, dirs: { workspace?: string; stateDir?: string } = {}): Promise<TestKernel> {
  const workspace = dirs.workspace ?? tempDir('pincer-turns-ws-');
  const stateDir = dirs.stateDir ?? tempDir('pincer-turns-state-');
  process.env.PINCER_STATE_DIR = stateDir;
  const logs: string[] = [];
  const kernel = createKernel(config(workspace), { cwd: workspace, logger: (record) => void logs.push(`${record.level} ${record.source}: ${record.message}`) });
  await kernel.start();
  return { kernel, workspace, stateDir, logs };
}

/** Polls `check` until it returns a value (not undefined) or the deadline passes. */
export async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function text(result: { content: readonly { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}
