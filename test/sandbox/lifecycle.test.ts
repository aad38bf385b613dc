import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { DockerSandbox } from '../../plugins/sandbox-docker/src/docker-sandbox.js';
import { listSandboxes, pruneSandboxes, recreateSandboxes } from '../../plugins/sandbox-docker/src/lifecycle.js';
import { runDockerSelfTest } from '../../plugins/sandbox-docker/src/self-test.js';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';
import { makeWorkspace } from './fixtures.js';
import { HAS_DOCKER, RUN_LABEL, TEST_IMAGE, removeTestContainers } from './services.js';

const labels = { ...RUN_LABEL, 'pincer.testSuite': `lifecycle-${process.pid}` };
const config = (scope: 'session' | 'agent' = 'session') => resolveSandboxConfig({ scope, workspaceAccess: 'rw', docker: { image: TEST_IMAGE, containerPrefix: 'pincer-life-' } });

describe.skipIf(!HAS_DOCKER)('docker sandbox lifecycle and self-test (real engine)', () => {
  const docker = new Docker();
  afterAll(removeTestContainers);

  it('lists, recreates by session and agent, and prunes idle sandboxes', async () => {
    const s = new DockerSandbox({ config: config(), labels });
    const a = new DockerSandbox({ config: config('agent'), labels, registry: s.registry });
    await s.ensureContainer({ sessionKey: 'life:1', agentId: 'main', workspaceDir: makeWorkspace() });
    await s.ensureContainer({ sessionKey: 'life:2', agentId: 'main', workspaceDir: makeWorkspace() });
    await a.ensureContainer({ sessionKey: 'life:3', agentId: 'ops', workspaceDir: makeWorkspace() });
    const deps = { docker, registry: s.registry, labels };
    const listed = await listSandboxes(deps);
    expect(listed.map((i) => i.scopeKey).sort()).toEqual(['agent:ops', 'life:1', 'life:2']);
    expect(listed.every((i) => i.running && i.configHash && i.lastUsedAtMs)).toBe(true);
    expect(await recreateSandboxes(deps, { session: 'life:1' })).toHaveLength(1);
    expect(await recreateSandboxes(deps, { agent: 'ops' })).toHaveLength(1);
    expect(await pruneSandboxes(deps, { idleHours: 1, maxAgeDays: 0 })).toEqual([]);
    expect(await pruneSandboxes(deps, { idleHours: 1, maxAgeDays: 0, now: Date.now() + 2 * 3_600_000 })).toHaveLength(1);
    expect(await listSandboxes(deps)).toEqual([]);
  });

  it('passes the self-test on a healthy engine', async () => {
    const report = await runDockerSelfTest(docker, config(), RUN_LABEL);
    expect(report.checks.map((c) => c.name)).toEqual(['engine', 'image', 'protected-paths']);
  });

  it('fails closed and explains a missing image', async () => {
    const bad = resolveSandboxConfig({ docker: { image: 'pincer-test:does-not-exist' } });
    await expect(runDockerSelfTest(docker, bad)).rejects.toMatchObject({ code: 'IMAGE_MISSING', message: expect.stringContaining('sandbox.docker.image') });
  });

  it('fails closed and explains an unreachable engine', async () => {
    const gone = new Docker({ socketPath: '/nonexistent/docker.sock' });
    await expect(runDockerSelfTest(gone, config())).rejects.toMatchObject({ code: 'BACKEND_UNAVAILABLE', message: expect.stringContaining('Start dockerd') });
  });

  it('does not demand a read-only root when readOnlyRoot is off (skills must still be read-only)', async () => {
    const writableRoot = resolveSandboxConfig({ docker: { image: TEST_IMAGE, readOnlyRoot: false, containerPrefix: 'pincer-life-' } });
    await expect(runDockerSelfTest(docker, writableRoot, RUN_LABEL)).resolves.toBeDefined();
  });
});
