#!/usr/bin/env node
/**
 * The `pincer` bin. Builds the context from the real process and exits with the command's code.
 * Everything else lives in run.ts so it can be tested without spawning.
 */
import { createContext } from './context.js';
import { loadKernelApi } from './kernel.js';
import { packageVersion } from './package-root.js';
import { runCli } from './run.js';

const ctx = createContext({
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  cwd: process.cwd(),
  kernelApi: loadKernelApi,
  version: packageVersion(),
});

const code = await runCli(process.argv.slice(2), ctx);
// Set the code and let pending writes flush; `serve` keeps the loop alive on its own.
process.exitCode = code;
