/** Runs the CLI in-process against the real kernel API, with optional terminal input. */
import { PassThrough } from 'node:stream';
import { createContext } from '../../cli/context.js';
import { loadKernelApi } from '../../cli/kernel.js';
import { runCli } from '../../cli/run.js';

export interface InProcessRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `answers`, when given, arrive on a stdin that claims to be a terminal (and stderr claims so too). */
export async function runCliHere(argv: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; answers?: string[] }): Promise<InProcessRun> {
  let stdout = '';
  let stderr = '';
  const tty = options.answers !== undefined;
  const stdin = Object.assign(new PassThrough(), { isTTY: tty });
  if (tty) stdin.end(options.answers!.map((a) => `${a}\n`).join(''));
  const ctx = createContext({
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s), isTTY: tty },
    stdin,
    env: { NO_COLOR: '1', HOME: process.env.HOME, ...options.env },
    cwd: options.cwd,
    kernelApi: loadKernelApi,
    version: '0.0.0-test',
  });
  const code = await runCli(argv, ctx);
  return { code, stdout, stderr };
}
