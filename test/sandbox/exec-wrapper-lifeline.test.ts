/**
 * The exec wrapper of shell-backed sandboxes (docker, ssh) kills its command when its
 * lifeline (the wrapper's stdin) closes. A backend that dies just after it started an exec
 * (the kernel SIGKILLed with a call in flight) closes the lifeline before the command has
 * its own process group, and the watcher's group kill then found no group: about one
 * command in twenty ran on for good (a fresh-clone CI run of test/tools/shell-exit.test.ts
 * caught it in a container). Here the real script runs under the host's sh with its
 * lifeline closed from the start, many times at once: no command may survive.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { execScript } from '../../sdk/sandbox/shell/exec-script.js';

const SECONDS = 900_000 + (process.pid % 90_000);
const needle = `sleep ${SECONDS}`;

/** Live (not zombie) processes whose command line holds the needle, with their pids. */
function survivors(): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) continue;
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(needle)) found.push(Number(pid));
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

afterAll(() => {
  for (const pid of survivors()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
});

describe('the exec wrapper with its lifeline closed from the start', () => {
  it('runs no command on, in 60 tries at once', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pincer-lifeline-'));
    // Guard tables (no hard links, one writable mount, nothing protected), then cwd, command, stdin bytes.
    const args = ['-', `w|${dir}`, '', dir, `${needle} & wait`, '0'];
    const script = execScript({});
    const exits = Array.from({ length: 60 }, () => {
      // stdin 'ignore' is /dev/null: the lifeline reads end-of-file at once.
      const child = spawn('sh', ['-c', script, 'pincer', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      return new Promise<string>((resolve) => child.once('exit', () => resolve(stderr)));
    });
    // A surviving command keeps its wrapper waiting: give them all time to end, then count.
    await Promise.race([Promise.all(exits), new Promise((r) => setTimeout(r, 10_000))]);
    await expect.poll(() => survivors().length, { timeout: 5_000, interval: 200 }).toBe(0);
    // Each wrapper got past the guard (no failure of its own), so each reached its command.
    const stderrs = await Promise.all(exits);
    expect(stderrs.filter((e) => e.includes('__PINCER_ERR__'))).toEqual([]);
  }, 30_000);
});
