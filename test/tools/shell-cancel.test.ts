import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { createKernel, type PincerConfig } from '../../kernel/index.js';
import { HAS_DOCKER, HAS_SSH, TEST_IMAGE, sshSettings } from '../sandbox/services.js';

/**
 * The cancellation chain end to end, on every backend: the caller aborts an exec (kernel →
 * shell plugin → its workspace request → router → backend), or `process kill` stops a
 * background run; the command's whole process group is gone within seconds, counted where
 * it runs (this machine, the container, the ssh host).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const PREFIX = `pincer-cancel-${process.pid}-`;
const plugin = (id: string) => path.join(ROOT, 'dist/plugins', id, 'src/main.js');
let nextSeconds = 910_000 + (process.pid % 1000) * 10;

/** Live processes on this machine whose command line contains `needle` (the test sshd runs here too). */
function onThisMachine(needle: string): number {
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

async function inContainers(needle: string): Promise<number> {
  const docker = new Docker();
  const containers = (await docker.listContainers()).filter((c) => c.Names.some((n) => n.replace(/^\//, '').startsWith(PREFIX)));
  let count = 0;
  for (const c of containers) {
    const top = (await docker.getContainer(c.Id).top({ ps_args: '-o pid,args' }).catch(() => ({ Processes: [] }))) as { Processes?: string[][] };
    count += (top.Processes ?? []).filter((p) => p.join(' ').includes(needle)).length;
  }
  return count;
}

const BACKENDS = [
  { name: 'local', enabled: true, sandbox: undefined, count: async (n: string) => onThisMachine(n) },
  { name: 'docker', enabled: HAS_DOCKER, sandbox: { mode: 'all', backend: 'docker', workspaceAccess: 'rw' }, count: inContainers },
  { name: 'ssh', enabled: HAS_SSH, sandbox: { mode: 'all', backend: 'ssh', workspaceAccess: 'rw' }, count: async (n: string) => onThisMachine(n) },
] as const;

function config(sandbox: Record<string, unknown> | undefined): PincerConfig {
  const workspace = mkdtempSync(path.join(tmpdir(), 'pincer-cancel-'));
  return {
    plugins: [
      ...bundledPluginConfigs(),
      { id: 'sandbox-docker', module: plugin('sandbox-docker'), settings: { docker: { image: TEST_IMAGE, containerPrefix: PREFIX } } },
      { id: 'sandbox-ssh', module: plugin('sandbox-ssh'), settings: { ssh: sshSettings({ remoteRoot: `/tmp/${PREFIX}ssh` }) } },
    ],
    agents: { list: [{ id: 'main', workspace, ...(sandbox ? { sandbox } : {}) }] },
  } as PincerConfig;
}

afterAll(async () => {
  if (!HAS_DOCKER) return;
  const docker = new Docker();
  const list = await docker.listContainers({ all: true }).catch(() => []);
  const ours = list.filter((c) => c.Names.some((name) => name.replace(/^\//, '').startsWith(PREFIX)));
  await Promise.all(ours.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
});

for (const backend of BACKENDS) {
  describe.runIf(backend.enabled)(`cancellation kills the command's process group (${backend.name})`, () => {
    it('an aborted exec: the group is gone within seconds of the abort', async () => {
      const kernel = createKernel(config(backend.sandbox), { logger: () => undefined });
      await kernel.start();
      try {
        const needle = `sleep ${(nextSeconds += 1)}`;
        const controller = new AbortController();
        const call = kernel.assembleTools().execute('exec', { command: `${needle} & ${needle} & wait` }, { signal: controller.signal }).catch((e: unknown) => e);
        await expect.poll(() => backend.count(needle), { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(2);
        controller.abort();
        await call;
        await expect.poll(() => backend.count(needle), { timeout: 5_000, interval: 100 }).toBe(0);
      } finally {
        await kernel.stop();
      }
    }, 120_000);

    it('process kill of a background run: the group is gone when the reply says so', async () => {
      const kernel = createKernel(config(backend.sandbox), { logger: () => undefined });
      await kernel.start();
      try {
        const tools = kernel.assembleTools();
        const needle = `sleep ${(nextSeconds += 1)}`;
        const started = await tools.execute('exec', { command: `${needle} & ${needle} & wait`, background: true });
        const sessionId = (started.details as { sessionId: string }).sessionId;
        await expect.poll(() => backend.count(needle), { timeout: 60_000, interval: 200 }).toBeGreaterThanOrEqual(2);
        const killed = await tools.execute('process', { action: 'kill', sessionId });
        expect(killed.content[0]).toMatchObject({ text: expect.stringMatching(/^Killed run_\w+ and its whole process group/) });
        // SIGKILL was sent and confirmed before the reply; the table may take a moment to drop the dead.
        await expect.poll(() => backend.count(needle), { timeout: 3_000, interval: 100 }).toBe(0);
      } finally {
        await kernel.stop();
      }
    }, 120_000);
  });
}
