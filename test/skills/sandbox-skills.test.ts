import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, defaultConfig, type Kernel, type PincerConfig } from '../../kernel/index.js';
import { removeDeployment, testDeployment } from '../sandbox/deployment.js';
import { HAS_DOCKER, HAS_SSH, TEST_IMAGE, sshSettings } from '../sandbox/services.js';
import { TempDirs, skillMd, writeTree } from './helpers.js';

/**
 * A sandboxed session's skill index names files as the sandbox's tools see them: workspace
 * skills below the workdir (read-only in the container), skills outside the workspace left out
 * with a reason. Real Docker engine and real sshd; the model reads what the index says.
 */
const root = resolve(import.meta.dirname, '../..');
const DEPLOYMENT = testDeployment('q');
// The test sshd runs on this machine (test/sandbox/setup-services.sh), so its remote root is local.
const REMOTE_ROOT = `/tmp/pincer-skills-ssh-${process.pid}`;
const temp = new TempDirs();
const text = (r: { content: { type: string; text?: string }[] }) => r.content.map((b) => b.text ?? '').join('');

function sandboxedConfig(ws: string, home: string, backend: 'docker' | 'ssh'): PincerConfig {
  const plugins = defaultConfig({ cwd: ws }).plugins!.map((p) => (p.id === 'skills' ? { ...p, settings: { managedDir: join(home, 'm'), personalDir: join(home, 'p') } } : p));
  const backendPlugin =
    backend === 'docker'
      ? { id: 'sandbox-docker', module: join(root, 'dist/plugins/sandbox-docker/src/main.js'), settings: { deploymentId: DEPLOYMENT, registryPath: join(home, 'containers.json'), docker: { image: TEST_IMAGE } } }
      : { id: 'sandbox-ssh', module: join(root, 'dist/plugins/sandbox-ssh/src/main.js'), settings: { ssh: sshSettings({ remoteRoot: REMOTE_ROOT }) } };
  return { plugins: [...plugins, backendPlugin], agents: { list: [{ id: 'main', workspace: ws, sandbox: { mode: 'all', backend, workspaceAccess: 'rw' } }] } };
}

for (const backend of ['docker', 'ssh'] as const) {
  describe.skipIf(backend === 'docker' ? !HAS_DOCKER : !HAS_SSH)(`skills in a ${backend} sandbox`, () => {
    let kernel: Kernel;
    beforeAll(async () => {
      const ws = writeTree(temp.make(), { 'skills/build/SKILL.md': skillMd('Build the project'), '.agents/skills/lint/SKILL.md': skillMd('Lint the project') });
      const home = writeTree(temp.make(), { 'p/mine/SKILL.md': skillMd('Personal, outside the workspace') });
      kernel = createKernel(sandboxedConfig(ws, home, backend), { cwd: ws, logger: () => undefined });
      await kernel.start();
      await kernel.skills.refresh();
    }, 120_000);
    afterAll(async () => {
      await kernel?.stop();
      if (backend === 'docker') await removeDeployment(DEPLOYMENT);
      else rmSync(REMOTE_ROOT, { recursive: true, force: true });
      temp.cleanup();
    });

    it('lists workspace skills at their sandbox paths and leaves the others out with a reason', () => {
      const skills = kernel.assembleTools().skills;
      expect(skills.skills.map((s) => [s.name, s.location])).toEqual([
        ['build', '/workspace/skills/build/SKILL.md'],
        ['lint', '/workspace/.agents/skills/lint/SKILL.md'],
      ]);
      expect(skills.excluded.filter((e) => e.reason === 'outside-sandbox').map((e) => e.name).sort()).toEqual(['mine', 'pincer-explain', 'pincer-plugin-authoring', 'pincer-skill-authoring']);
      expect(skills.prompt).toContain('<location>/workspace/skills/build/SKILL.md</location>');
    });

    it('lets the sandboxed tools read each indexed skill, and not rewrite it', async () => {
      const toolSet = kernel.assembleTools();
      for (const skill of toolSet.skills.skills) {
        const read = await toolSet.execute('read', { path: skill.location });
        expect(read.isError, text(read)).toBeFalsy();
        expect(text(read)).toContain(skill.description);
      }
      const write = await toolSet.execute('write', { path: '/workspace/skills/build/SKILL.md', content: 'rewritten' });
      expect(write.isError).toBe(true);
    }, 120_000);
  });
}
