import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { createKernel, type Kernel, type PincerConfig } from '../../kernel/index.js';

/** Shared by the attack files: real plugin processes built into dist/, scratch dirs, cleanup. */
export const ROOT = path.resolve(import.meta.dirname, '../..');
export const plugin = (id: string) => path.join(ROOT, 'dist/plugins', id, 'src/main.js');
export const fixture = (name: string) => path.join(ROOT, 'dist/test/fixtures/plugins', `${name}.js`);
/** Hostile plugins written from docs/protocol.md alone, as plain ES modules (no SDK, no build). */
export const redteamFixture = (name: string) => path.join(ROOT, 'test/redteam/fixtures', `${name}.mjs`);

export function scratch(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `pincer-rt-${name}-`));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

export async function withKernel<T>(cfg: PincerConfig, options: { configPath?: string; cwd?: string }, run: (kernel: Kernel) => Promise<T>): Promise<T> {
  const kernel = createKernel(cfg, { logger: () => undefined, ...options });
  await kernel.start();
  try {
    return await run(kernel);
  } finally {
    await kernel.stop();
  }
}

/** Removes this run's docker containers (label set by the deployment id). */
export async function removeDeployment(deploymentId: string): Promise<void> {
  const docker = new Docker();
  const list = await docker.listContainers({ all: true, filters: { label: [`pincer.deployment=${deploymentId}`] } }).catch(() => []);
  await Promise.all(list.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
}

export async function waitFor(what: string, check: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
