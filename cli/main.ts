#!/usr/bin/env node
/**
 * The `pincer` bin. Builds the context from the real process and exits with the command's code.
 * Everything else lives in run.ts so it can be tested without spawning.
 */
import { readFileSync } from 'node:fs';
import { createContext } from './context.js';
import { loadKernelApi } from './kernel.js';
import { runCli } from './run.js';

function packageVersion(): string {
  // Built: dist/cli/main.js (two levels up); run from source: cli/main.ts (one level up).
  for (const relative of ['../../package.json', '../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'pincer' && pkg.version) return pkg.version;
    } catch {
      // not this one; try the next
    }
  }
  return '0.0.0';
}

const ctx = createContext({
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  kernelApi: loadKernelApi,
  version: packageVersion(),
});

const code = await runCli(process.argv.slice(2), ctx);
// Set the code and let pending writes flush; `serve` keeps the loop alive on its own.
process.exitCode = code;
