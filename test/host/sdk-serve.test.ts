import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { KERNEL_PID_ENV, PLUGIN_COOKIE_ENV, PLUGIN_COOKIE_VALUE } from '../../protocol/index.js';
import { alive, fixture, waitFor } from './helpers.js';

const run = promisify(execFile);

describe('serve() as a process', () => {
  it('prints a helpful message and exits non-zero when started by hand', async () => {
    const error = await run(process.execPath, [fixture('echo')], { env: { PATH: process.env.PATH }, timeout: 10_000 }).catch((e: unknown) => e as { code: number; stderr: string });
    expect(error).toMatchObject({ code: 1 });
    expect((error as { stderr: string }).stderr).toMatch(/Pincer plugin "echo".*not meant to be run by hand/s);
    expect((error as { stderr: string }).stderr).toContain('createPluginTestHarness');
  });

  it('exits when its kernel dies even though its pipes are still held open elsewhere', async () => {
    // A stand-in "kernel" spawns the plugin with an fd-3 pipe and hands its end of the pipes to a
    // "holder" process, so only the watchdog can notice when the kernel is SIGKILLed.
    const script = `
      const { spawn } = require('node:child_process');
      const child = spawn(process.execPath, [${JSON.stringify(fixture('echo'))}], {
        stdio: ['pipe', 'inherit', 'inherit', 'pipe'],
        env: { PATH: process.env.PATH, ${PLUGIN_COOKIE_ENV}: '${PLUGIN_COOKIE_VALUE}', ${KERNEL_PID_ENV}: String(process.pid) },
      });
      const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: [child.stdin, 'ignore', 'ignore', child.stdio[3]], detached: true });
      process.stdout.write(child.pid + ' ' + holder.pid + '\\n');
      setInterval(() => {}, 1000);`;
    const fakeKernel = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [pluginPid, holderPid] = await new Promise<number[]>((resolve) => fakeKernel.stdout.once('data', (d) => resolve(String(d).trim().split(' ').map(Number))));
    try {
      expect(alive(pluginPid!)).toBe(true);
      fakeKernel.kill('SIGKILL');
      await waitFor(() => !alive(pluginPid!), 5_000, 'orphaned plugin to exit');
      expect(alive(holderPid!)).toBe(true); // the pipe really was still open
    } finally {
      process.kill(holderPid!, 'SIGKILL');
    }
  });
});
