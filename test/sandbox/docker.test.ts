import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DockerSandbox } from '../../plugins/sandbox-docker/src/docker-sandbox.js';
import { DockerWorkspace } from '../../plugins/sandbox-docker/src/docker-workspace.js';
import { resolveSandboxConfig, type DockerBackendSettings, type SandboxSettings } from '../../sdk/sandbox/config.js';
import { SandboxPathGuard } from '../../sdk/sandbox/guard/path-guard.js';
import { MemorySandboxRegistry } from '../../sdk/sandbox/registry.js';
import { WRITE_SCRIPT } from '../../sdk/sandbox/shell/file-scripts.js';
import { runShell } from '../../sdk/sandbox/shell/run.js';
import { ShellWorkspace } from '../../sdk/sandbox/shell/shell-workspace.js';
import type { SandboxShellBackend, SpawnRequest } from '../../sdk/sandbox/shell/types.js';
import { makeWorkspace } from './fixtures.js';
import { removeDeployment, testDeployment } from './deployment.js';
import { HAS_DOCKER, TEST_IMAGE, tempDir } from './services.js';
import { workspaceAttackTests, workspaceOutputOrderTests, type OpenedForTest } from './workspace-contract.js';

/** This run's own deployment: names and the ownership label of our containers are ours alone. */
const DEPLOYMENT = testDeployment('t');
const settings = (extra: SandboxSettings = {}): DockerBackendSettings => ({
  mode: 'all', scope: 'session', workspaceAccess: 'rw', deploymentId: DEPLOYMENT, ...extra,
  docker: { image: TEST_IMAGE, containerPrefix: 'pincer-test-', ...extra.docker },
});
const sandboxFor = (extra: SandboxSettings = {}) => new DockerSandbox({ config: resolveSandboxConfig(settings(extra)) });
let seq = 0;
const session = () => `docker-test:${process.pid}:${++seq}`;

describe.skipIf(!HAS_DOCKER)('docker sandbox backend (real engine)', () => {
  let opened: OpenedForTest & { ws: DockerWorkspace };
  beforeAll(async () => {
    const hostDir = makeWorkspace();
    opened = { hostDir, ws: await DockerWorkspace.open(sandboxFor(), { sessionKey: session(), agentId: 'main', workspaceDir: hostDir }) };
  });
  afterAll(() => removeDeployment(DEPLOYMENT));

  describe('attacks', () => workspaceAttackTests(() => opened, 400));
  describe('output order', () => workspaceOutputOrderTests(() => opened));

  it('creates the container with the hardened defaults and labels', async () => {
    const info = await opened.ws.handle.container.inspect();
    expect(info.HostConfig.ReadonlyRootfs).toBe(true);
    expect(info.HostConfig.NetworkMode).toBe('none');
    expect(info.HostConfig.CapDrop).toEqual(['ALL']);
    expect(info.HostConfig.SecurityOpt).toContain('no-new-privileges');
    expect(info.Config.Env).toContain('LANG=C.UTF-8');
    expect(info.Config.Labels['pincer.configHash']).toBe(opened.ws.handle.plan.configHash);
    expect(info.Config.Labels['pincer.sandbox']).toBe('1');
    const skills = info.Mounts.find((m) => m.Destination === '/workspace/skills');
    expect(skills?.RW).toBe(false);
    expect(info.Name.length).toBeLessThanOrEqual(64);
  });

  it('refuses a symlink swapped in between the check and the write', async () => {
    const { ws, hostDir } = opened;
    await ws.mkdir('swap', { recursive: true });
    const inner = ws.handle.shell;
    // A shell whose write script, between judging the canonical path and walking to it,
    // replaces the checked directory with a symlink to a writable place outside every
    // mount (the container's /tmp).
    const judged = 'resolve "$T" 0 w; hdr';
    expect(WRITE_SCRIPT).toContain(judged);
    const swapping: SandboxShellBackend = {
      label: inner.label,
      spawn: (req: SpawnRequest) =>
        inner.spawn(req.script === WRITE_SCRIPT ? { ...req, script: req.script.replace(judged, `${judged}; rm -rf /workspace/swap && ln -s /tmp /workspace/swap`) } : req),
    };
    const guard = await SandboxPathGuard.open(swapping, '/workspace', [{ path: '/workspace', target: '/workspace', writable: true, source: 'workspace' }]);
    const racy = new ShellWorkspace(swapping, guard);
    await expect(racy.write('swap/owned.txt', 'gotcha')).rejects.toMatchObject({ code: 'PATH_NOT_ADMITTED', message: expect.stringContaining('changed between the check and the operation') });
    expect((await runShell(inner, { script: 'ls -a /tmp' })).stdout.toString()).not.toContain('owned.txt');
    expect(existsSync(join(hostDir, 'swap'))).toBe(true); // the symlink, not a directory with our file
  });

  it('fails a call with SANDBOX_GONE when the container is killed mid-call, and recovers on next open', async () => {
    const hostDir = makeWorkspace();
    const sandbox = sandboxFor();
    const key = session();
    const ws = await DockerWorkspace.open(sandbox, { sessionKey: key, agentId: 'main', workspaceDir: hostDir });
    const call = ws.exec('sleep 431');
    setTimeout(() => void ws.handle.container.kill().catch(() => undefined), 500);
    await expect(call).rejects.toMatchObject({ code: 'SANDBOX_GONE' });
    const again = await DockerWorkspace.open(sandbox, { sessionKey: key, agentId: 'main', workspaceDir: hostDir });
    expect((await again.exec('echo back')).stdout).toBe('back\n');
  });

  it('reuses a matching container, starts a stopped one, and never hands out one whose config changed', async () => {
    const hostDir = makeWorkspace();
    const key = session();
    let now = Date.now();
    const warnings: string[] = [];
    const registry = sandboxFor().registry;
    const make = (env: Record<string, string>, reg = registry) => new DockerSandbox({
      config: resolveSandboxConfig(settings({ docker: { env } })), registry: reg, now: () => now,
      logger: { warn: (m: string) => warnings.push(m), info: () => undefined },
    });
    const ctx = { sessionKey: key, agentId: 'main', workspaceDir: hostDir };
    const first = await make({ A: '1' }).ensureContainer(ctx);
    expect(first.created).toBe(true);
    expect(await make({ A: '1' }).ensureContainer(ctx)).toMatchObject({ created: false });
    // Used moments ago (the registry says so) with another config: neither handed out nor removed.
    await expect(make({ A: '2' }).ensureContainer(ctx)).rejects.toMatchObject({ code: 'SANDBOX_IN_USE', message: expect.stringContaining(`pincer sandbox recreate --session ${key}`) });
    expect((await first.container.inspect()).State.Running).toBe(true);
    now += 6 * 60 * 1000;
    const cold = await make({ A: '2' }).ensureContainer(ctx);
    expect(cold.created).toBe(true);
    expect(warnings.join('\n')).toContain('does not match its configuration (config hash); recreating it');
    await cold.container.stop({ t: 0 });
    const restarted = await make({ A: '2' }).ensureContainer(ctx);
    expect(restarted.created).toBe(false);
    expect((await restarted.container.inspect()).State.Running).toBe(true);
    // A new process knows no last use: unknown never counts as recent, so the change applies.
    const fresh = await make({ A: '3' }, new MemorySandboxRegistry()).ensureContainer(ctx);
    expect(fresh.created).toBe(true);
    expect((await runShell(fresh.shell, { script: 'printf %s "$A"' })).stdout.toString()).toBe('3');
  });

  it('refuses dangerous configs before creating anything', async () => {
    const hostDir = makeWorkspace();
    const docker = new Docker();
    // Only this run's containers: other suites share the engine and create their own meanwhile.
    const ours = async () => (await docker.listContainers({ all: true, filters: { label: [`pincer.deployment=${DEPLOYMENT}`] } })).length;
    const before = await ours();
    for (const bad of [
      { binds: ['/etc:/host-etc:ro'] },
      { binds: ['/var/run/docker.sock:/var/run/docker.sock'] },
      { binds: [`${hostDir}/src:/workspace/src`] },
      { network: 'host' },
    ]) {
      await expect(sandboxFor({ docker: bad }).ensureContainer({ sessionKey: session(), agentId: 'main', workspaceDir: hostDir })).rejects.toMatchObject({ code: 'SECURITY_VIOLATION' });
    }
    expect(await ours()).toBe(before);
  });

  it('mounts the workspace read-only for workspaceAccess ro and refuses writes with READ_ONLY_MOUNT', async () => {
    const hostDir = makeWorkspace();
    const ws = await DockerWorkspace.open(sandboxFor({ workspaceAccess: 'ro' }), { sessionKey: session(), agentId: 'main', workspaceDir: hostDir });
    await expect(ws.write('new.txt', 'x')).rejects.toMatchObject({ code: 'READ_ONLY_MOUNT' });
    expect((await ws.read('hello.txt')).content).toBe('hello world\n');
    // Even a command cannot write: the mount itself is read-only in the container.
    const r = await ws.exec('echo x > /workspace/new.txt');
    expect(r.exitCode).not.toBe(0);
    expect(existsSync(join(hostDir, 'new.txt'))).toBe(false);
  });

  it('runs the setup command once on create', async () => {
    const hostDir = tempDir('setup');
    mkdirSync(join(hostDir, 'x'));
    const ws = await DockerWorkspace.open(sandboxFor({ docker: { setupCommand: 'echo ready > /workspace/x/setup.txt' } }), { sessionKey: session(), agentId: 'main', workspaceDir: hostDir });
    expect((await ws.read('x/setup.txt')).content).toBe('ready\n');
    rmSync(hostDir, { recursive: true, force: true });
  });
});
