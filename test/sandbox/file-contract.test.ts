import { existsSync, linkSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { DockerSandbox } from '../../plugins/sandbox-docker/src/docker-sandbox.js';
import { createDockerPlugin } from '../../plugins/sandbox-docker/src/plugin.js';
import { createSshPlugin } from '../../plugins/sandbox-ssh/src/plugin.js';
import { DockerWorkspace, toGuardMounts } from '../../plugins/sandbox-docker/src/docker-workspace.js';
import { SshShell } from '../../plugins/sandbox-ssh/src/ssh-shell.js';
import { SshWorkspace } from '../../plugins/sandbox-ssh/src/ssh-workspace.js';
import { SshSettingsSchema } from '../../plugins/sandbox-ssh/src/settings.js';
import { acquireCopy } from '../../plugins/sandbox-ssh/src/sync/copy-registry.js';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';
import { SandboxPathGuard } from '../../sdk/sandbox/guard/path-guard.js';
import { ShellWorkspace } from '../../sdk/sandbox/shell/shell-workspace.js';
import type { HandlerContext, SandboxBackendDefinition } from '../../sdk/plugin-api.js';
import { PROTECTED, fileContractTests, makeProtectedWorkspace, makeWorkspace, type ContractBackend } from './file-contract.js';
import { raceCampaignTests } from './race-campaign.js';
import { HAS_DOCKER, HAS_SSH, TEST_IMAGE, sshSettings } from './services.js';

// Its own label only: cleaning up must not remove the containers of test files running
// beside it, and their blanket clean-up (label pincer.test=1) must not remove these.
const RUN = `file-contract-${process.pid}`;
const LABELS = { 'pincer.test.run': RUN };
let seq = 0;
const session = (kind: string) => `${kind}-contract:${process.pid}:${++seq}`;

const sandbox = () =>
  new DockerSandbox({
    config: resolveSandboxConfig({ mode: 'all', scope: 'session', workspaceAccess: 'rw', docker: { image: TEST_IMAGE, containerPrefix: 'pincer-fc-' } }),
    labels: LABELS,
  });

const docker: ContractBackend = {
  keepsOwner: false, // the container runs without CAP_CHOWN
  async open(hostDir, options) {
    const ws = await DockerWorkspace.open(sandbox(), { sessionKey: session('docker'), agentId: 'main', workspaceDir: hostDir }, options);
    return { ws, sandboxDir: hostDir, close: async () => undefined };
  },
  async openThrough(hostDir, wrap) {
    const opened = await DockerWorkspace.open(sandbox(), { sessionKey: session('docker'), agentId: 'main', workspaceDir: hostDir });
    const shell = wrap(opened.handle.shell);
    const guard = await SandboxPathGuard.open(shell, '/workspace', toGuardMounts(opened.handle.plan.mounts));
    return { ws: new ShellWorkspace(shell, guard), sandboxDir: hostDir, close: async () => undefined };
  },
};

const ssh: ContractBackend = {
  keepsOwner: true, // the test sshd logs in as root
  async open(hostDir, options) {
    const ws = await SshWorkspace.open(sshSettings(), { sessionKey: session('ssh'), agentId: 'main', workspaceDir: hostDir, workspaceAccess: 'rw' }, options);
    return { ws, sandboxDir: ws.copies[0]!.copy.treeDir, close: async () => { await ws.close(); } };
  },
  async openThrough(hostDir, wrap) {
    const opened = await SshWorkspace.open(sshSettings(), { sessionKey: session('ssh'), agentId: 'main', workspaceDir: hostDir, workspaceAccess: 'rw' });
    const target = opened.copies[0]!.copy.treeDir;
    const shell = wrap(new SshShell(opened.connection));
    const guard = await SandboxPathGuard.open(shell, '/workspace', [{ path: '/workspace', target, writable: true, source: 'workspace' }]);
    return { ws: new ShellWorkspace(shell, guard), sandboxDir: target, close: async () => { await opened.close(); } };
  },
};

const pluginCtx = (settings: Record<string, unknown>): HandlerContext =>
  ({ signal: new AbortController().signal, settings, log: { warn: () => undefined, info: () => undefined } }) as unknown as HandlerContext;

/** The operator's knobs reach the guard through the plugin: protectedPaths from prepare, allowHardLinks from settings. */
async function checkPluginPlumbing(backend: SandboxBackendDefinition, settings: Record<string, unknown>, sandboxDirOf: (hostDir: string) => Promise<string | undefined>): Promise<void> {
  const hostDir = makeProtectedWorkspace();
  const session = `plumbing-${process.pid}-${++seq}`;
  await backend.prepare({ session, backendId: backend.id, workspaceDir: hostDir, protectedPaths: ['.git'] }, pluginCtx(settings));
  try {
    const ops = backend.operations;
    await expect(ops.write!({ session, path: '.git/hooks/pre-commit', content: 'evil' }, pluginCtx(settings))).rejects.toMatchObject({ data: { code: 'PROTECTED_PATH' } });
    const dir = (await sandboxDirOf(hostDir)) ?? hostDir;
    linkSync(join(dir, 'hello.txt'), join(dir, 'twin.txt'));
    expect(await ops.read!({ session, path: 'twin.txt' }, pluginCtx(settings))).toMatchObject({ content: 'hello world\n' });
  } finally {
    await backend.release?.(session, pluginCtx(settings));
  }
}

describe.skipIf(!HAS_DOCKER)('docker backend: file-operation contract (real engine)', () => {
  afterAll(async () => {
    const engine = new Docker();
    const mine = await engine.listContainers({ all: true, filters: { label: [`pincer.test.run=${RUN}`] } });
    await Promise.all(mine.map((c) => engine.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
  });
  fileContractTests(docker);
  raceCampaignTests(docker, 35);

  it('passes protectedPaths and the allowHardLinks setting from the plugin to the guard', async () => {
    const prefix = `pincer-fcplug-${process.pid}-`;
    try {
      const [backend] = createDockerPlugin().sandboxBackends!;
      await checkPluginPlumbing(backend, { docker: { image: TEST_IMAGE, containerPrefix: prefix }, scope: 'session', workspaceAccess: 'rw', allowHardLinks: true }, async () => undefined);
    } finally {
      const engine = new Docker();
      const mine = await engine.listContainers({ all: true, filters: { name: [prefix] } });
      await Promise.all(mine.map((c) => engine.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
    }
  });

  it('removes the temp file a killed container left in the workspace when the workspace opens again', async () => {
    const hostDir = makeWorkspace();
    const stale = join(hostDir, '.pincer-tmp-deadbeef0000');
    const fresh = join(hostDir, '.pincer-tmp-c0ffee000000');
    writeFileSync(stale, 'half a write');
    writeFileSync(fresh, 'a write in flight');
    const old = new Date(Date.now() - 10 * 60_000);
    utimesSync(stale, old, old);
    await docker.open(hostDir, {});
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(fresh)).toBe(true); // younger than a minute: maybe another session's live write
  });
});

describe.skipIf(!HAS_SSH)('ssh backend: file-operation contract (real sshd)', () => {
  fileContractTests(ssh);
  raceCampaignTests(ssh, 35);

  it('passes protectedPaths and the allowHardLinks setting from the plugin to the guard', async () => {
    const [backend] = createSshPlugin().sandboxBackends!;
    const settings = { ssh: sshSettings(), workspaceAccess: 'rw', allowHardLinks: true };
    // The session's copy is shared in this process: holding it too names its tree (this sshd runs on this machine).
    await checkPluginPlumbing(backend, settings, async (hostDir) => {
      // The copy is keyed by allowHardLinks too (a copy uploaded without hard-linked files is another copy).
      const held = await acquireCopy({ settings: SshSettingsSchema.parse(settings.ssh), hostDir, access: 'rw', agentId: 'main', allowHardLinks: settings.allowHardLinks });
      await held.release();
      return held.copy.treeDir;
    });
  });

  it('never syncs protected paths back, even when a remote command rewrote them', async () => {
    const hostDir = makeProtectedWorkspace();
    const ws = await SshWorkspace.open(sshSettings({ syncBack: 'on-close' }), { sessionKey: session('ssh'), agentId: 'main', workspaceDir: hostDir, workspaceAccess: 'rw' }, { protectedPaths: PROTECTED });
    await ws.exec('echo evil > .git/hooks/pre-commit; echo "{}" > pincer.config.json; echo kept > made-remotely.txt');
    await ws.close();
    expect(readFileSync(join(hostDir, '.git', 'hooks', 'pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    expect(readFileSync(join(hostDir, 'pincer.config.json'), 'utf8')).toContain('deny');
    expect(readFileSync(join(hostDir, 'made-remotely.txt'), 'utf8')).toBe('kept\n');
  });
});
