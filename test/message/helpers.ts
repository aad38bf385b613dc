import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createKernel, type Kernel, type PincerConfig } from '../../kernel/index.js';
import { scratchCwd } from '../helpers/scratch-cwd.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const pluginModule = (id: string): string => path.join(ROOT, 'dist/plugins', id, 'src/main.js');
export const fixtureModule = (name: string): string => path.join(ROOT, 'dist/test/fixtures/message', `${name}.js`);

/** Fast test timings for every plugin of a config. */
export const FAST = { handshakeMs: 10_000, callMs: 10_000, shutdownGraceMs: 1_000, killGraceMs: 1_000 };

export function scratchDir(prefix = 'pincer-message-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function startKernel(config: PincerConfig): Promise<Kernel> {
  const kernel = createKernel(config, { cwd: scratchCwd(), logger: () => undefined });
  await kernel.start();
  return kernel;
}

export function textOf(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

export function errorCode(result: { details?: Record<string, unknown> }): string | undefined {
  return (result.details?.error as { code?: string } | undefined)?.code;
}

/** The records of a JSONL file, in order. */
export function jsonLines(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 15_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
