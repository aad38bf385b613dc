import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { createKernel, type PincerConfig } from '../../kernel/index.js';
import { sshDataDirFor } from '../../plugins/sandbox-ssh/src/data-dir.js';
import type { SshSettings } from '../../plugins/sandbox-ssh/src/settings.js';
import { ensureBuilt, pincer } from '../cli/helpers/built-cli.js';
import { HAS_DOCKER, HAS_SSH, knownHostsFile, sshSettings, tempDir } from './services.js';
import { openSsh, removeRoot, smallWorkspace, sshRoot } from './ssh-fixtures.js';

const ROOT = sshRoot('kernel');
const REPO = path.resolve(import.meta.dirname, '../..');
const plugin = (id: string) => path.join(REPO, 'dist/plugins', id, 'src/main.js');
const MB = 1024 * 1024;

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

/** A kernel with the bundled tools and the ssh backend for one sandboxed agent. */
function kernelConfig(workspace: string, ssh: Partial<SshSettings>, sandbox: Record<string, unknown> = {}, timeouts: Record<string, number> = {}): PincerConfig {
  return {
    plugins: [
      ...bundledPluginConfigs(),
      // A sync back at shutdown must finish within the plugin's shutdown grace.
      { id: 'sandbox-ssh', module: plugin('sandbox-ssh'), settings: { ssh: sshSettings({ remoteRoot: ROOT, ...ssh }) }, timeouts: { shutdownGraceMs: 60_000, ...timeouts } },
    ],
    agents: { list: [{ id: 'main', workspace, sandbox: { mode: 'all', backend: 'ssh', ...sandbox } }] },
  } as PincerConfig;
}

describe.skipIf(!HAS_SSH)('the ssh backend in a real kernel', () => {
  beforeAll(() => ensureBuilt());
  afterAll(() => removeRoot(ROOT));

  it('syncs a writable workspace back when the kernel stops (syncBack: on-close)', async () => {
    const workspace = smallWorkspace();
    const kernel = createKernel(kernelConfig(workspace, { syncBack: 'on-close' }, { workspaceAccess: 'rw' }), { logger: () => undefined });
    await kernel.start();
    try {
      const tools = kernel.assembleTools();
      const written = await tools.execute('write', { path: 'made-in-sandbox.txt', content: 'from the sandbox\n' });
      expect(written.isError, text(written)).toBeFalsy();
      expect(text(await tools.execute('exec', { command: 'cat made-in-sandbox.txt' }))).toContain('from the sandbox');
      expect(existsSync(path.join(workspace, 'made-in-sandbox.txt'))).toBe(false); // not before the stop
    } finally {
      await kernel.stop();
    }
    expect(readFileSync(path.join(workspace, 'made-in-sandbox.txt'), 'utf8')).toBe('from the sandbox\n');
  }, 180_000);

  it('gives a session without a configured workspaceAccess a read-only workspace (none), as docker does', async () => {
    const workspace = smallWorkspace();
    const kernel = createKernel(kernelConfig(workspace, { syncBack: 'on-close' }), { logger: () => undefined });
    await kernel.start();
    try {
      const tools = kernel.assembleTools();
      expect(text(await tools.execute('read', { path: 'hello.txt' }))).toContain('hello world');
      const refused = await tools.execute('write', { path: 'hello.txt', content: 'overwritten' });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toMatch(/READ_ONLY_MOUNT|read-only/);
      await tools.execute('exec', { command: 'echo by-command > hello.txt' });
    } finally {
      await kernel.stop();
    }
    expect(readFileSync(path.join(workspace, 'hello.txt'), 'utf8')).toBe('hello world\n');
  }, 180_000);

  it('keeps a first sync longer than the call deadline going, answering calls with its progress until it is done', async () => {
    const workspace = tempDir('ssh-big');
    const block = Buffer.alloc(8 * MB);
    for (let i = 0; i < 24; i++) {
      block.writeUInt32LE(i, 0);
      writeFileSync(path.join(workspace, `blob-${i}.bin`), block);
    }
    writeFileSync(path.join(workspace, 'hello.txt'), 'hello after 192 MB\n');
    // The call deadline (3 s) is shorter than the upload; each call waits 1 s for it at most.
    const config = kernelConfig(workspace, { sync: { waitMs: 1_000, batchBytes: 32 * MB } }, { workspaceAccess: 'ro' }, { callMs: 3_000 });
    const kernel = createKernel(config, { logger: () => undefined });
    await kernel.start();
    const answers: string[] = [];
    try {
      const tools = kernel.assembleTools();
      const deadline = Date.now() + 240_000;
      for (;;) {
        const result = await tools.execute('read', { path: 'hello.txt' });
        if (!result.isError) {
          expect(text(result)).toContain('hello after 192 MB');
          break;
        }
        answers.push(text(result));
        if (Date.now() > deadline) throw new Error(`never synced: ${answers.at(-1)}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    } finally {
      await kernel.stop();
    }
    expect(answers.length).toBeGreaterThan(0);
    for (const answer of answers) expect(answer).toContain('still being copied to ssh');
    expect(answers.some((answer) => / of 25 entries, \d+ of 192 MB/.test(answer))).toBe(true);
    expect(answers.join('\n')).not.toMatch(/timeout|did not answer|PLUGIN_TIMEOUT/i);
  }, 300_000);

  it.runIf(HAS_DOCKER)('pincer sandbox prune removes idle remote copies no session holds, and keeps the one in use', async () => {
    const stateDir = tempDir('ssh-state');
    const dataDir = sshDataDirFor({ PINCER_STATE_DIR: stateDir });
    const knownHosts = knownHostsFile();
    const settings = { knownHostsPaths: [knownHosts] };
    const unused = await openSsh(ROOT, smallWorkspace(), { dataDir, settings });
    const unusedCopy = unused.copies[0]!.copy.target.copyDir;
    await unused.close();
    const inUse = await openSsh(ROOT, smallWorkspace(), { dataDir, settings });
    const inUseCopy = inUse.copies[0]!.copy.target.copyDir;
    try {
      const old = new Date(Date.now() - 3 * 86_400_000);
      for (const copy of [unusedCopy, inUseCopy]) utimesSync(path.join(copy, 'meta'), old, old);
      const dir = tempDir('ssh-cli');
      const configFile = path.join(dir, 'pincer.config.json');
      writeFileSync(configFile, JSON.stringify({
        plugins: [{ id: 'sandbox-ssh', module: plugin('sandbox-ssh'), settings: { ssh: sshSettings({ remoteRoot: ROOT, knownHostsPaths: [knownHosts] }) } }],
        agents: { list: [{ id: 'main', workspace: dir, plugins: ['sandbox-ssh'], sandbox: { mode: 'all', backend: 'ssh' } }] },
      }));
      const run = await pincer(['sandbox', 'prune', '--idle-hours', '24', '--max-age-days', '0', '--config', configFile, '--json'], { cwd: dir, env: { PINCER_STATE_DIR: stateDir }, timeoutMs: 120_000 });
      expect(run.code, run.stderr).toBe(0);
      const ssh = (JSON.parse(run.stdout) as { ssh: string[] }).ssh;
      expect(ssh).toEqual([expect.stringContaining(path.basename(unusedCopy))]);
      expect(existsSync(unusedCopy)).toBe(false);
      expect(existsSync(inUseCopy)).toBe(true);
      expect((await inUse.read('hello.txt')).content).toBe('hello world\n');
    } finally {
      await inUse.close();
    }
  }, 180_000);
});
