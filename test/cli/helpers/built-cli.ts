/**
 * Runs the real, built `pincer` bin as a child process. The end-to-end suites need the real kernel
 * and bundled plugins; until `kernel/index.ts` exports `createKernel` they are skipped.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '../../..');
export const CLI = join(REPO, 'dist/cli/main.js');

/** `npm test` builds first; a bare `vitest run` gets a build here when dist is missing. */
export function ensureBuilt(): void {
  if (!existsSync(CLI)) execFileSync(process.execPath, [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', join(REPO, 'tsconfig.json')], { stdio: 'inherit' });
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export function pincer(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return new Promise((resolvePromise) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      // A clean env: no colour, no inherited PINCER_CONFIG pointing somewhere else.
      { cwd: options.cwd ?? REPO, env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', ...options.env }, timeout: options.timeoutMs ?? 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolvePromise({ code, stdout, stderr });
      },
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}

/** A temp workspace with a README.md and hello.txt; `cleanup()` removes it. */
export function tempWorkspace(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'pincer-cli-'));
  writeFileSync(join(dir, 'README.md'), '# temp workspace\n');
  writeFileSync(join(dir, 'hello.txt'), 'hello from pincer\n');
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Writes a config file: the kernel's embedded default for `dir` (so bundled plugins resolve the
 * same way) with `patch` applied on top, merged one level deep.
 */
export async function writeConfig(dir: string, patch: (config: Record<string, any>) => void, name = 'pincer.config.json'): Promise<string> {
  const kernel = (await import(join(REPO, 'dist/kernel/index.js'))) as { defaultConfig(o: { cwd: string }): Record<string, any> };
  const config = structuredClone(kernel.defaultConfig({ cwd: dir }));
  patch(config);
  const file = join(dir, name);
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  return file;
}
