import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { createKernel, type PincerConfig } from '../../kernel/index.js';
import { scratchCwd } from '../helpers/scratch-cwd.js';
import { HAS_DOCKER, HAS_SSH, TEST_IMAGE, sshSettings } from '../sandbox/services.js';
import { pluginModule, text } from './helpers.js';

/** A memory run's append-only write, held by the kernel, inside a container and on an ssh host. */
const PREFIX = `pincer-memrun-${process.pid}-`;

function config(backend: 'docker' | 'ssh'): PincerConfig {
  const workspace = mkdtempSync(path.join(tmpdir(), `pincer-memrun-${backend}-`));
  const sandbox = backend === 'docker'
    ? { id: 'sandbox-docker', module: pluginModule('sandbox-docker'), settings: { docker: { image: TEST_IMAGE, containerPrefix: PREFIX } } }
    : { id: 'sandbox-ssh', module: pluginModule('sandbox-ssh'), settings: { ssh: sshSettings({ remoteRoot: `/tmp/${PREFIX}ssh` }) } };
  return {
    plugins: [...bundledPluginConfigs(), sandbox],
    tools: { profile: 'coding' },
    agents: { list: [{ id: 'main', default: true, workspace, sandbox: { mode: 'all', backend, workspaceAccess: 'rw' } }] },
  };
}

afterAll(async () => {
  if (!HAS_DOCKER) return;
  const docker = new Docker();
  const ours = (await docker.listContainers({ all: true })).filter((c) => c.Names.some((name) => name.replace(/^\//, '').startsWith(PREFIX)));
  await Promise.all(ours.map((c) => docker.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
});

for (const [backend, enabled] of [['docker', HAS_DOCKER], ['ssh', HAS_SSH]] as const) {
  describe.runIf(enabled)(`memory runs on the ${backend} backend`, () => {
    it('append to their one path inside the sandbox and write nowhere else', async () => {
      const kernel = createKernel(config(backend), { cwd: scratchCwd(), logger: () => undefined });
      await kernel.start();
      try {
        const user = kernel.assembleTools();
        expect(user.sandbox).toMatchObject({ sandboxed: true, backend });
        expect((await user.execute('write', { path: 'MEMORY.md', content: 'keep me\n' })).outcome).toBe('ok');
        const memory = kernel.assembleTools({ trigger: 'memory', memoryWritePath: 'memory/2030-01-01.md' });
        expect(memory.tools.map((tool) => tool.name).sort()).toEqual(['read', 'write']);
        for (const content of ['first\n', 'second\n']) expect((await memory.execute('write', { path: 'memory/2030-01-01.md', content })).outcome).toBe('ok');
        const refused = await memory.execute('write', { path: 'MEMORY.md', content: 'overwritten' });
        expect(text(refused)).toContain('MEMORY_PATH_ONLY');
        // What the sandbox itself holds, read by a command inside it.
        const inside = await user.execute('exec', { command: 'cat memory/2030-01-01.md MEMORY.md' });
        expect(text(inside)).toContain('first\nsecond\nkeep me\n');
      } finally {
        await kernel.stop();
      }
    }, 180_000);
  });
}
