import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { DockerSandbox } from '../../plugins/sandbox-docker/src/docker-sandbox.js';
import { listSandboxes, pruneSandboxes, recreateSandboxes, type LifecycleDeps } from '../../plugins/sandbox-docker/src/lifecycle.js';
import { sandboxContainerName } from '../../plugins/sandbox-docker/src/plan.js';
import { runDockerSelfTest } from '../../plugins/sandbox-docker/src/self-test.js';
import { resolveSandboxConfig, type ResolvedSandboxConfig } from '../../sdk/sandbox/config.js';
import type { SandboxInfo } from '../../sdk/sandbox/lifecycle.js';
import { MemorySandboxRegistry } from '../../sdk/sandbox/registry.js';
import { runShell } from '../../sdk/sandbox/shell/run.js';
import { makeWorkspace } from './fixtures.js';
import { removeDeployment, testDeployment } from './deployment.js';
import { HAS_DOCKER, TEST_IMAGE } from './services.js';

const DEPLOYMENT = testDeployment('l');
const FOREIGN = testDeployment('x');
const config = (scope: 'session' | 'agent' = 'session', deploymentId = DEPLOYMENT) =>
  resolveSandboxConfig({ deploymentId, scope, workspaceAccess: 'rw', docker: { image: TEST_IMAGE, containerPrefix: 'pincer-life-' } });

/** What the CLI does for a config: the names it would give a container with these labels, for its agents' workspaces. */
const namesFor = (c: ResolvedSandboxConfig, workspaces: Record<string, string>) => (info: SandboxInfo) =>
  info.agentId && workspaces[info.agentId] ? [sandboxContainerName(c, { sessionKey: info.scopeKey, agentId: info.agentId, workspaceDir: workspaces[info.agentId] }, info.scope as 'session')] : [];

describe.skipIf(!HAS_DOCKER)('docker sandbox lifecycle and self-test (real engine)', () => {
  const docker = new Docker();
  afterAll(async () => { await removeDeployment(DEPLOYMENT); await removeDeployment(FOREIGN); });

  it('lists, recreates by session and agent, and prunes idle sandboxes', async () => {
    const registry = new MemorySandboxRegistry();
    const workspaces = { main: makeWorkspace(), ops: makeWorkspace() };
    const s = new DockerSandbox({ config: config(), registry });
    const a = new DockerSandbox({ config: config('agent'), registry });
    await s.ensureContainer({ sessionKey: 'life:1', agentId: 'main', workspaceDir: workspaces.main });
    await s.ensureContainer({ sessionKey: 'life:2', agentId: 'main', workspaceDir: workspaces.main });
    await a.ensureContainer({ sessionKey: 'life:3', agentId: 'ops', workspaceDir: workspaces.ops });
    const deps: LifecycleDeps = { docker, deploymentId: DEPLOYMENT, registry, expectedNames: namesFor(config(), workspaces) };
    const listed = await listSandboxes(deps);
    expect(listed.map((i) => i.scopeKey).sort()).toEqual(['agent:ops', 'life:1', 'life:2']);
    expect(listed.every((i) => i.running && i.configHash && i.lastUsedAtMs && i.deploymentId === DEPLOYMENT)).toBe(true);
    expect(await recreateSandboxes(deps, { session: 'life:1' })).toHaveLength(1);
    expect(await recreateSandboxes(deps, { agent: 'ops' })).toHaveLength(1);
    expect(await pruneSandboxes(deps, { idleHours: 1, maxAgeDays: 0 })).toEqual([]);
    expect(await pruneSandboxes(deps, { idleHours: 1, maxAgeDays: 0, now: Date.now() + 2 * 3_600_000 })).toHaveLength(1);
    expect(await listSandboxes(deps)).toEqual([]);
  });

  it('touches only its own deployment\'s containers with their exact names, whatever shares the prefix', async () => {
    const mine = { main: makeWorkspace() };
    const other = { main: makeWorkspace() };
    const ours = await new DockerSandbox({ config: config() }).ensureContainer({ sessionKey: 'own:1', agentId: 'main', workspaceDir: mine.main });
    // Another configuration: same prefix and deployment, another workspace. And another deployment, same prefix.
    const theirs = await new DockerSandbox({ config: config() }).ensureContainer({ sessionKey: 'own:1', agentId: 'main', workspaceDir: other.main });
    const foreign = await new DockerSandbox({ config: config('session', FOREIGN) }).ensureContainer({ sessionKey: 'own:1', agentId: 'main', workspaceDir: mine.main });
    const deps: LifecycleDeps = { docker, deploymentId: DEPLOYMENT, expectedNames: namesFor(config(), mine) };
    expect(await recreateSandboxes(deps, { all: true })).toEqual([ours.plan.name]);
    for (const kept of [theirs, foreign]) expect((await kept.container.inspect()).State.Running).toBe(true);
    expect(await pruneSandboxes({ ...deps, expectedNames: namesFor(config(), other) }, { idleHours: 0, maxAgeDays: 0.000001, now: Date.now() + 60_000 })).toEqual([theirs.plan.name]);
    expect((await foreign.container.inspect()).State.Running).toBe(true);
  });

  it('never prunes a sandbox with a command running in it, whatever its recorded last use', async () => {
    const ws = { main: makeWorkspace() };
    const registry = new MemorySandboxRegistry();
    const handle = await new DockerSandbox({ config: config(), registry }).ensureContainer({ sessionKey: 'busy', agentId: 'main', workspaceDir: ws.main });
    const running = runShell(handle.shell, { script: 'sleep 30', timeoutMs: 60_000 }).catch(() => undefined);
    for (let i = 0; i < 200 && !(await handle.container.inspect()).ExecIDs?.length; i++) await new Promise((r) => setTimeout(r, 50));
    const deps: LifecycleDeps = { docker, deploymentId: DEPLOYMENT, registry, expectedNames: namesFor(config(), ws) };
    const later = { idleHours: 1, maxAgeDays: 0, now: Date.now() + 3 * 3_600_000 };
    expect(await pruneSandboxes(deps, later)).toEqual([]);
    await handle.container.kill().catch(() => undefined);
    await running;
  });

  it('passes the self-test on a healthy engine', async () => {
    const report = await runDockerSelfTest(docker, config());
    expect(report.checks.map((c) => c.name)).toEqual(['engine', 'image', 'protected-paths']);
  });

  it('fails closed and says exactly how to get a missing image', async () => {
    const bad = resolveSandboxConfig({ docker: { image: 'pincer-test:does-not-exist' } });
    await expect(runDockerSelfTest(docker, bad)).rejects.toMatchObject({ code: 'IMAGE_MISSING', message: expect.stringContaining('pincer sandbox image build --tag pincer-test:does-not-exist') });
    await expect(runDockerSelfTest(docker, resolveSandboxConfig({ docker: { image: 'pincer-sandbox:bookworm-slim' } }))).rejects.toMatchObject({ message: expect.stringContaining('Build it from the Dockerfile Pincer ships: pincer sandbox image build (') });
  });

  it('fails closed and explains an unreachable engine', async () => {
    const gone = new Docker({ socketPath: '/nonexistent/docker.sock' });
    await expect(runDockerSelfTest(gone, config())).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE', message: expect.stringContaining('Start dockerd') });
  });

  it('finds a writable root in the probe when readOnlyRoot is off by override (skills must still be read-only)', async () => {
    const writableRoot = resolveSandboxConfig({ deploymentId: DEPLOYMENT, docker: { image: TEST_IMAGE, readOnlyRoot: false, dangerouslyAllowWritableRoot: true, containerPrefix: 'pincer-life-' } });
    await expect(runDockerSelfTest(docker, writableRoot)).resolves.toBeDefined();
  });
});
