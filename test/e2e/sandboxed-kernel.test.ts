import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type Kernel, type PincerConfig, type ToolSet } from '../../kernel/index.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import Docker from 'dockerode';
import { HAS_DOCKER, HAS_SSH, TEST_IMAGE, sshSettings } from '../sandbox/services.js';

// A prefix of this run's own: a hot container from an earlier run would be reused as is.
const PREFIX = `pincer-e2e-${process.pid}-`;

async function removeRunContainers(): Promise<void> {
  const docker = new Docker();
  const list = await docker.listContainers({ all: true }).catch(() => []);
  const ours = list.filter((c) => c.Names.some((name) => name.replace(/^\//, '').startsWith(PREFIX)));
  await Promise.all(ours.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
}

const root = path.resolve(import.meta.dirname, '../..');
const plugin = (id: string) => path.join(root, 'dist/plugins', id, 'src/main.js');

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

/** The same transcript on any backend: what a model would see. */
async function transcript(tools: ToolSet): Promise<string[]> {
  const steps: string[] = [];
  const run = async (name: string, params: Record<string, unknown>) => {
    const result = await tools.execute(name, params);
    // Errors compare by code: each backend words its refusal itself.
    const body = result.isError ? (text(result).match(/\[([A-Z_]+)\]/)?.[1] ?? text(result)) : text(result).replace(/\[exit code[^\]]*\]/g, '');
    steps.push(`${name}:${result.isError ? 'error' : 'ok'}:${body}`);
  };
  await run('write', { path: 'dir/a.txt', content: 'alpha\nbeta\n' });
  await run('edit', { path: 'dir/a.txt', oldText: 'beta', newText: 'gamma' });
  await run('read', { path: 'dir/a.txt' });
  await run('exec', { command: 'cat dir/a.txt | wc -l' });
  await run('read', { path: '../outside.txt' });
  return steps;
}

const workspaceFor = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `pincer-e2e-${name}-`));
  writeFileSync(path.join(dir, 'seed.txt'), 'seed');
  return dir;
};

function config(backend: string, workspace: string): PincerConfig {
  return {
    plugins: [
      ...bundledPluginConfigs(),
      { id: 'sandbox-docker', module: plugin('sandbox-docker'), settings: { docker: { image: TEST_IMAGE, containerPrefix: PREFIX } } },
      ...(HAS_SSH ? [{ id: 'sandbox-ssh', module: plugin('sandbox-ssh'), settings: { ssh: sshSettings({ remoteRoot: '/tmp/pincer-ssh-e2e' }) } }] : []),
    ],
    agents: { list: [{ id: 'main', workspace, sandbox: { mode: 'all', backend, workspaceAccess: 'rw' } }] },
  };
}

describe('a sandboxed session runs the fs and shell families with the same results as the local backend', () => {
  let local: Kernel;
  let expected: string[];
  beforeAll(async () => {
    local = createKernel({ plugins: bundledPluginConfigs(), agents: { list: [{ id: 'main', workspace: workspaceFor('local') }] } }, { logger: () => undefined });
    await local.start();
    expected = await transcript(local.assembleTools());
  });
  afterAll(async () => {
    await local.stop();
    if (HAS_DOCKER) await removeRunContainers();
  });

  it('refuses ../ on the local backend as a baseline', () => {
    expect(expected.at(-1)).toBe('read:error:PATH_OUTSIDE_MOUNT');
  });

  it.runIf(HAS_DOCKER)('inside a Docker container', async () => {
    const workspace = workspaceFor('docker');
    const kernel = createKernel(config('docker', workspace), { logger: () => undefined });
    await kernel.start();
    try {
      const tools = kernel.assembleTools();
      expect(tools.sandbox).toMatchObject({ sandboxed: true, backend: 'docker' });
      expect(await transcript(tools)).toEqual(expected);
      expect(readFileSync(path.join(workspace, 'dir/a.txt'), 'utf8')).toBe('alpha\ngamma\n');
      const inside = await tools.execute('exec', { command: 'cat /proc/1/cgroup >/dev/null; hostname; ls /workspace' });
      expect(text(inside)).toContain('seed.txt');
    } finally {
      await kernel.stop();
    }
  }, 120_000);

  it.runIf(HAS_SSH)('over SSH', async () => {
    const kernel = createKernel(config('ssh', workspaceFor('ssh')), { logger: () => undefined });
    await kernel.start();
    try {
      const tools = kernel.assembleTools();
      expect(tools.sandbox).toMatchObject({ sandboxed: true, backend: 'ssh' });
      expect(await transcript(tools)).toEqual(expected);
    } finally {
      await kernel.stop();
    }
  }, 120_000);
});
