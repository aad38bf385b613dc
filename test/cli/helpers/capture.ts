/** Runs the CLI in-process with captured stdout/stderr and a fake kernel. */
import { createContext } from '../../../cli/context.js';
import type { KernelApi } from '../../../cli/kernel.js';
import { runCli } from '../../../cli/run.js';

export interface Captured {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runInProcess(argv: string[], api: KernelApi, env: NodeJS.ProcessEnv = {}, cwd = process.cwd()): Promise<Captured> {
  let stdout = '';
  let stderr = '';
  const ctx = createContext({
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    env,
    cwd,
    kernelApi: async () => api,
    version: '0.0.0-test',
  });
  const code = await runCli(argv, ctx);
  return { code, stdout, stderr };
}
