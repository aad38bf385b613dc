import { existsSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { DockerSandbox } from '../../plugins/sandbox-docker/src/docker-sandbox.js';
import { DockerWorkspace, toGuardMounts } from '../../plugins/sandbox-docker/src/docker-workspace.js';
import { SshShell } from '../../plugins/sandbox-ssh/src/ssh-shell.js';
import { SshWorkspace } from '../../plugins/sandbox-ssh/src/ssh-workspace.js';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';
import { SandboxPathGuard } from '../../sdk/sandbox/guard/path-guard.js';
import { ShellWorkspace } from '../../sdk/sandbox/shell/shell-workspace.js';
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
    const ws = await SshWorkspace.open(sshSettings(), { sessionKey: session('ssh'), agentId: 'main', workspaceDir: hostDir }, options);
    return { ws, sandboxDir: posix.join(ws.remoteDir, 'm0'), close: () => ws.close() };
  },
  async openThrough(hostDir, wrap) {
    const opened = await SshWorkspace.open(sshSettings(), { sessionKey: session('ssh'), agentId: 'main', workspaceDir: hostDir });
    const target = posix.join(opened.remoteDir, 'm0');
    const shell = wrap(new SshShell(opened.connection));
    const guard = await SandboxPathGuard.open(shell, '/workspace', [{ path: '/workspace', target, writable: true, source: 'workspace' }]);
    return { ws: new ShellWorkspace(shell, guard), sandboxDir: target, close: () => opened.close() };
  },
};

describe.skipIf(!HAS_DOCKER)('docker backend: file-operation contract (real engine)', () => {
  afterAll(async () => {
    const engine = new Docker();
    const mine = await engine.listContainers({ all: true, filters: { label: [`pincer.test.run=${RUN}`] } });
    await Promise.all(mine.map((c) => engine.getContainer(c.Id).remove({ force: true }).catch(() => undefined)));
  });
  fileContractTests(docker);
  raceCampaignTests(docker, 35);

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

  it('never syncs protected paths back, even when a remote command rewrote them', async () => {
    const hostDir = makeProtectedWorkspace();
    const ws = await SshWorkspace.open(sshSettings({ syncBack: 'on-close' }), { sessionKey: session('ssh'), agentId: 'main', workspaceDir: hostDir }, { protectedPaths: PROTECTED });
    await ws.exec('echo evil > .git/hooks/pre-commit; echo "{}" > pincer.config.json; echo kept > made-remotely.txt');
    await ws.close();
    expect(readFileSync(join(hostDir, '.git', 'hooks', 'pre-commit'), 'utf8')).toBe('#!/bin/sh\nexit 0\n');
    expect(readFileSync(join(hostDir, 'pincer.config.json'), 'utf8')).toContain('deny');
    expect(readFileSync(join(hostDir, 'made-remotely.txt'), 'utf8')).toBe('kept\n');
  });
});
