import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { HAS_DOCKER, HAS_SSH, TEST_IMAGE, sshSettings } from '../sandbox/services.js';

/**
 * Commands die with the process that embeds the kernel, however it ends and wherever they
 * run: an embedding host starts foreground and background commands and then exits without
 * stop(). The process table (or the container's) is then counted: no survivor.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const PREFIX = `pincer-exit-${process.pid}-`;

/** Live processes (not zombies) whose command line contains `needle`, on this machine. */
function survivors(needle: string): number {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) continue;
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').includes(needle)) count += 1;
    } catch {
      // gone meanwhile
    }
  }
  return count;
}

type Ending = 'exit' | 'uncaught' | 'sigkill';

/**
 * Runs an embedding host that starts two foreground and two background `sleep <seconds>`;
 * once `running()` confirms they run, the host ends as told.
 */
async function runHost(ending: Ending, seconds: number, running: () => Promise<number> | number, sandbox?: Record<string, unknown>): Promise<void> {
  const workspace = mkdtempSync(path.join(tmpdir(), 'pincer-exit-'));
  const kernelModule = pathToFileURL(path.join(ROOT, 'dist/kernel/index.js')).href;
  const defaults = pathToFileURL(path.join(ROOT, 'dist/kernel/config/defaults.js')).href;
  const plugin = (id: string) => path.join(ROOT, 'dist/plugins', id, 'src/main.js');
  const extra = sandbox
    ? [{ id: 'sandbox-docker', module: plugin('sandbox-docker'), settings: { docker: { image: TEST_IMAGE, containerPrefix: PREFIX } } },
       { id: 'sandbox-ssh', module: plugin('sandbox-ssh'), settings: { ssh: sshSettings({ remoteRoot: `/tmp/${PREFIX}ssh` }) } }]
    : [];
  const script = `
    const { createKernel } = await import(${JSON.stringify(kernelModule)});
    const { bundledPluginConfigs } = await import(${JSON.stringify(defaults)});
    const kernel = createKernel({
      plugins: [...bundledPluginConfigs(), ...${JSON.stringify(extra)}],
      agents: { list: [{ id: 'main', workspace: ${JSON.stringify(workspace)}${sandbox ? `, sandbox: ${JSON.stringify(sandbox)}` : ''} }] },
    }, { logger: () => {} });
    await kernel.start();
    const tools = kernel.assembleTools();
    for (let i = 0; i < 2; i += 1) {
      const bg = await tools.execute('exec', { command: 'sleep ${seconds}', background: true });
      if (bg.isError) throw new Error(JSON.stringify(bg));
      void tools.execute('exec', { command: 'sleep ${seconds} & wait' }).catch(() => {});
    }
    process.stdout.write('ready\\n');
    process.stdin.once('data', () => {
      ${ending === 'exit' ? 'process.exit(0);' : ending === 'uncaught' ? "setTimeout(() => { throw new Error('boom'); }, 0);" : ''}
    });`;
  const host = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  host.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => host.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    host.stdout.on('data', (d) => String(d).includes('ready') && resolve());
    host.once('exit', (code) => reject(new Error(`host exited (${code}) before it was ready: ${stderr}`)));
  });
  // Both sleeps of each kind (and the shells around the foreground ones) are running now.
  await expect.poll(running, { timeout: 15_000, interval: 200 }).toBeGreaterThanOrEqual(4);
  if (ending === 'sigkill') host.kill('SIGKILL');
  else host.stdin.write('go\n');
  await exited;
}

afterAll(async () => {
  if (!HAS_DOCKER) return;
  const docker = new Docker();
  const list = await docker.listContainers({ all: true }).catch(() => []);
  const ours = list.filter((c) => c.Names.some((name) => name.replace(/^\//, '').startsWith(PREFIX)));
  await Promise.all(ours.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
});

describe('no command outlives the embedding process (local backend)', () => {
  for (const [ending, seconds] of [['exit', 900_101], ['uncaught', 900_102], ['sigkill', 900_103]] as const) {
    it(`after ${ending === 'exit' ? 'process.exit(0)' : ending === 'uncaught' ? 'an uncaught exception' : 'SIGKILL of the host'}: 0 survivors of 4 commands`, async () => {
      await runHost(ending, seconds, () => survivors(`sleep ${seconds}`));
      await expect.poll(() => survivors(`sleep ${seconds}`), { timeout: 10_000, interval: 200 }).toBe(0);
    }, 60_000);
  }
});

describe.runIf(HAS_DOCKER)('no command outlives the embedding process (docker backend)', () => {
  it('after SIGKILL of the host: 0 survivors inside the container', async () => {
    const seconds = 900_104;
    const docker = new Docker();
    const inside = async () => {
      const containers = (await docker.listContainers()).filter((c) => c.Names.some((n) => n.replace(/^\//, '').startsWith(PREFIX)));
      let count = 0;
      for (const c of containers) {
        const top = (await docker.getContainer(c.Id).top({ ps_args: '-o pid,args' }).catch(() => ({ Processes: [] }))) as { Processes?: string[][] };
        count += (top.Processes ?? []).filter((p) => p.join(' ').includes(`sleep ${seconds}`)).length;
      }
      return count;
    };
    await runHost('sigkill', seconds, inside, { mode: 'all', backend: 'docker', workspaceAccess: 'rw' });
    await expect.poll(inside, { timeout: 15_000, interval: 300 }).toBe(0);
  }, 120_000);
});

describe.runIf(HAS_SSH)('no command outlives the embedding process (ssh backend)', () => {
  it('after SIGKILL of the host: 0 survivors on the remote host', async () => {
    const seconds = 900_105;
    await runHost('sigkill', seconds, () => survivors(`sleep ${seconds}`), { mode: 'all', backend: 'ssh', workspaceAccess: 'rw' });
    // The test sshd runs on this machine: its remote processes are in this process table.
    await expect.poll(() => survivors(`sleep ${seconds}`), { timeout: 15_000, interval: 300 }).toBe(0);
  }, 120_000);
});
