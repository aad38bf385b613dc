import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../plugins/sandbox-local/src/local-workspace.js';

let root: string;
let workspace: LocalWorkspace;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'pincer-exec-')));
  await fs.mkdir(path.join(root, 'sub'));
  workspace = new LocalWorkspace({ workspaceDir: root, killGraceMs: 200 });
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

/** Alive and not a zombie (a zombie left for an init that does not reap is already dead). */
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return !/\) Z /.test(stat);
}

/** SIGKILL is delivered asynchronously: on a loaded machine the target may run a moment longer. */
async function diesSoon(pid: number, withinMs = 2_000): Promise<boolean> {
  const until = Date.now() + withinMs;
  while (await isAlive(pid)) {
    if (Date.now() > until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
}

describe('local backend exec', () => {
  it('runs a command in the workspace root and captures stdout, stderr and the exit code', async () => {
    const result = await workspace.exec('pwd; echo err >&2; exit 3');
    expect(result).toMatchObject({ exitCode: 3, signal: null, stdout: `${root}\n`, stderr: 'err\n', timedOut: false, truncated: false });
  });

  it('runs in a cwd inside the workspace and refuses one outside it', async () => {
    expect((await workspace.exec('pwd', { cwd: 'sub' })).stdout).toBe(`${path.join(root, 'sub')}\n`);
    expect((await workspace.exec('pwd', { cwd: '/workspace/sub' })).stdout).toBe(`${path.join(root, 'sub')}\n`);
    await expect(workspace.exec('pwd', { cwd: '/etc' })).rejects.toMatchObject({ code: 'PATH_NOT_ADMITTED' });
    await expect(workspace.exec('pwd', { cwd: '..' })).rejects.toMatchObject({ code: 'PATH_OUTSIDE_MOUNT' });
    await expect(workspace.exec('pwd', { cwd: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('passes only the env allow-list plus explicit variables', async () => {
    process.env.PINCER_TEST_SECRET = 'leak';
    try {
      const result = await workspace.exec('env', { env: { GREETING: 'hi' } });
      expect(result.stdout).toContain('GREETING=hi');
      expect(result.stdout).toContain('PATH=');
      expect(result.stdout).not.toContain('PINCER_TEST_SECRET');
    } finally {
      delete process.env.PINCER_TEST_SECRET;
    }
  });

  it('reports a missing binary as exit code 127 with the shell message', async () => {
    const result = await workspace.exec('definitely-not-a-binary-xyz --flag');
    expect(result.exitCode).toBe(127);
    expect(result.stderr).toMatch(/not found/);
  });

  it('kills the whole process group of a command that never ends and leaves no process behind', async () => {
    const pidFile = path.join(root, 'child.pid');
    const started = Date.now();
    const result = await workspace.exec(`sleep 1000 & echo $! > ${pidFile}; sleep 1000`, { timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(Date.now() - started).toBeLessThan(5_000);
    const childPid = Number(await fs.readFile(pidFile, 'utf8'));
    expect(await diesSoon(childPid)).toBe(true);
  });

  it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
    const result = await workspace.exec(`trap '' TERM; while :; do sleep 0.05; done`, { timeoutMs: 200 });
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
  });

  it('kills processes the shell left running when it exits normally', async () => {
    const pidFile = path.join(root, 'bg.pid');
    const result = await workspace.exec(`sleep 1000 >/dev/null 2>&1 & echo $! > ${pidFile}`, { timeoutMs: 5_000 });
    expect(result.exitCode).toBe(0);
    expect(await diesSoon(Number(await fs.readFile(pidFile, 'utf8')))).toBe(true);
  });

  it('caps an output flood and sets truncated while the command still finishes', async () => {
    const result = await workspace.exec('yes flood | head -c 5000000; echo done >&2', { maxOutputBytes: 64 * 1024 });
    expect(result.exitCode).toBe(0);
    expect(result.truncated).toBe(true);
    expect(result.stdout.length + result.stderr.length).toBeLessThanOrEqual(64 * 1024);
  });

  it('cancels a running command through its abort signal and kills its group', async () => {
    const pidFile = path.join(root, 'c.pid');
    const controller = new AbortController();
    const running = workspace.exec(`sleep 1000 & echo $! > ${pidFile}; wait`, {}, controller.signal);
    await new Promise((resolve) => setTimeout(resolve, 200));
    controller.abort();
    await expect(running).rejects.toThrow();
    expect(await diesSoon(Number(await fs.readFile(pidFile, "utf8")))).toBe(true);
  });

  it('feeds stdin to the command', async () => {
    expect((await workspace.exec('tr a-z A-Z', { stdin: 'shout' })).stdout).toBe('SHOUT');
  });

  it('starts every command without a terminal, editor or pager, whatever the host has', async () => {
    const term = process.env.TERM;
    process.env.TERM = 'xterm-256color';
    try {
      expect((await workspace.exec('echo "$TERM $PAGER $GIT_EDITOR"')).stdout).toBe('dumb cat true\n');
      expect((await workspace.exec('echo "$TERM"', { env: { TERM: 'vt100' } })).stdout).toBe('vt100\n');
    } finally {
      if (term === undefined) delete process.env.TERM;
      else process.env.TERM = term;
    }
  });

  it('refuses an environment variable name that is not one, even from a caller that skipped the tool schema', async () => {
    await expect(workspace.exec('env', { env: { 'X=Y': '1' } })).rejects.toMatchObject({ code: 'IO_ERROR', message: expect.stringMatching(/Invalid environment variable name "X=Y"/) });
  });

  it('runs in the host directory the command itself reported', async () => {
    const seen = (await workspace.exec('cd sub && pwd')).stdout.trim();
    expect(await workspace.exec('pwd', { cwd: seen })).toMatchObject({ stdout: `${seen}\n`, cwd: seen });
  });

  it('reports processes the command left running, after killing them', async () => {
    const result = await workspace.exec('sleep 1000 & echo started');
    expect(result).toMatchObject({ exitCode: 0, strayProcessesKilled: true });
    expect(await workspace.exec('sleep 0.1; echo alone')).not.toHaveProperty('strayProcessesKilled');
  });

  it('kills its commands when the backend process itself is SIGKILLed (the reaper)', async () => {
    const pidFile = path.join(root, 'orphan.pid');
    const moduleUrl = pathToFileURL(path.resolve(import.meta.dirname, '../../dist/plugins/sandbox-local/src/local-workspace.js')).href;
    const script = `
      const { LocalWorkspace } = await import(${JSON.stringify(moduleUrl)});
      const ws = new LocalWorkspace({ workspaceDir: ${JSON.stringify(root)} });
      void ws.exec('sleep 1000 & echo $! > ${pidFile}; wait');
      setInterval(() => {}, 1000);`;
    const backend = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    while (!(await fs.readFile(pidFile, 'utf8').catch(() => '')).trim() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(await fs.readFile(pidFile, 'utf8'));
    expect(await isAlive(pid)).toBe(true);
    backend.kill('SIGKILL');
    expect(await diesSoon(pid, 10_000)).toBe(true);
  });
});
