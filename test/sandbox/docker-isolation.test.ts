import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { DockerSandbox } from '../../plugins/sandbox-docker/src/docker-sandbox.js';
import { DockerWorkspace } from '../../plugins/sandbox-docker/src/docker-workspace.js';
import { planDockerSandbox } from '../../plugins/sandbox-docker/src/plan.js';
import { resolveSandboxConfig, type DockerSettings } from '../../sdk/sandbox/config.js';
import { MemorySandboxRegistry, type SandboxRegistry } from '../../sdk/sandbox/registry.js';
import { runShell } from '../../sdk/sandbox/shell/run.js';
import { makeWorkspace } from './fixtures.js';
import { removeDeployment, testDeployment } from './deployment.js';
import { HAS_DOCKER, TEST_IMAGE, tempDir } from './services.js';

/**
 * The reuse and naming attacks against the real engine: one project's, agent's or config's
 * container must never serve another. Each test runs the attack first, then checks the refusal.
 */
const DEPLOYMENT = testDeployment('i');
const docker = new Docker();
const config = (over: { scope?: 'session' | 'agent'; workspaceAccess?: 'rw' | 'ro'; docker?: DockerSettings } = {}) =>
  // The default prefix and scope, as two projects with default configs have them; only the image is the test's.
  resolveSandboxConfig({ deploymentId: DEPLOYMENT, workspaceAccess: over.workspaceAccess ?? 'rw', scope: over.scope, docker: { image: TEST_IMAGE, ...over.docker } });
const sandbox = (c: ReturnType<typeof config>, registry: SandboxRegistry = new MemorySandboxRegistry()) =>
  new DockerSandbox({ config: c, registry });
const sh = async (ws: DockerWorkspace, command: string) => {
  const r = await ws.exec(command);
  return { code: r.exitCode, out: `${r.stdout}${r.stderr}` };
};

describe.skipIf(!HAS_DOCKER)('docker sandbox isolation between projects, agents and configs (real engine)', () => {
  afterAll(() => removeDeployment(DEPLOYMENT));

  it('gives two projects with default configs two containers: project Y cannot read project X', async () => {
    const x = makeWorkspace();
    const y = makeWorkspace();
    writeFileSync(join(x, 'private.txt'), 'x-secret');
    const registry = new MemorySandboxRegistry(); // one process serving both, so X's container is "hot"
    const wx = await DockerWorkspace.open(sandbox(config(), registry), { sessionKey: 'agent:main:main', agentId: 'main', workspaceDir: x });
    const wy = await DockerWorkspace.open(sandbox(config(), registry), { sessionKey: 'agent:main:main', agentId: 'main', workspaceDir: y });
    expect(wy.containerName).not.toBe(wx.containerName);
    expect(wx.containerName).toMatch(new RegExp(`^pincer-sbx-${DEPLOYMENT}-agent-main-[0-9a-f]{24}$`));
    const leak = await sh(wy, 'cat /workspace/private.txt; ls /workspace');
    expect(leak.out).not.toContain('x-secret');
    expect(leak.out).toContain('hello.txt');
    expect((await sh(wx, 'cat /workspace/private.txt')).out).toBe('x-secret');
  });

  it('keeps agent B, with agent A\'s session key and a read-only workspace of its own, out of A\'s workspace', async () => {
    const a = makeWorkspace();
    const b = makeWorkspace();
    writeFileSync(join(a, 'secret.txt'), 'a-secret');
    const key = `agent:shared-key:${process.pid}`;
    const wa = await DockerWorkspace.open(sandbox(config({ scope: 'session' })), { sessionKey: key, agentId: 'a', workspaceDir: a });
    const wb = await DockerWorkspace.open(sandbox(config({ scope: 'session', workspaceAccess: 'ro' })), { sessionKey: key, agentId: 'b', workspaceDir: b });
    expect(wb.containerName).not.toBe(wa.containerName);
    expect((await sh(wb, 'cat /workspace/secret.txt')).out).not.toContain('a-secret');
    const write = await sh(wb, 'echo pwned > /workspace/pwned.txt');
    expect(write.code).not.toBe(0);
    expect(existsSync(join(a, 'pwned.txt')) || existsSync(join(b, 'pwned.txt'))).toBe(false);
  });

  it('applies rw → ro to commands too: the writable container is replaced, or refused while another process uses it', async () => {
    const ws = makeWorkspace();
    const ctx = { sessionKey: 'agent:ops:main', agentId: 'ops', workspaceDir: ws };
    const shared = new MemorySandboxRegistry();
    const rw = await DockerWorkspace.open(sandbox(config(), shared), ctx);
    expect((await sh(rw, 'echo before > /workspace/before.txt')).code).toBe(0);
    // The operator switches the agent to ro. A registry that saw the rw container used a moment ago: refused, not handed out.
    await expect(DockerWorkspace.open(sandbox(config({ workspaceAccess: 'ro' }), shared), ctx)).rejects.toMatchObject({ code: 'SANDBOX_IN_USE', message: expect.stringMatching(/different configuration \(.*mounts.*\)/) });
    // A restarted kernel knows no last use, which never counts as recent: the rw container is replaced.
    const ro = await DockerWorkspace.open(sandbox(config({ workspaceAccess: 'ro' })), ctx);
    expect(ro.containerName).toBe(rw.containerName);
    expect(ro.handle.created).toBe(true);
    const after = await sh(ro, 'echo after > /workspace/after.txt');
    expect(after.code).not.toBe(0);
    expect(existsSync(join(ws, 'after.txt'))).toBe(false);
    await expect(ro.write('after.txt', 'x')).rejects.toMatchObject({ code: 'READ_ONLY_MOUNT' });
  });

  it('checks a container against the engine\'s own view, not its labels: a forged config hash does not get it handed out', async () => {
    const ws = makeWorkspace();
    const loot = tempDir('loot');
    writeFileSync(join(loot, 'outside.txt'), 'outside');
    const c = config();
    const ctx = { sessionKey: 's', agentId: 'forged', workspaceDir: ws };
    const plan = planDockerSandbox(c, ctx);
    // A container under the plan's exact name and labels (config hash included), but with one more bind and a network.
    const hostConfig = { ...plan.create.HostConfig, Binds: [...(plan.create.HostConfig?.Binds ?? []), `${loot}:/loot:rw`] };
    await (await docker.createContainer({ ...plan.create, HostConfig: hostConfig })).start();
    const warnings: string[] = [];
    const handed = await new DockerSandbox({ config: c, registry: new MemorySandboxRegistry(), logger: { warn: (m) => warnings.push(m), info: () => undefined } }).ensureContainer(ctx);
    expect(handed.created).toBe(true);
    expect(warnings.join('\n')).toMatch(/does not match its configuration \(mounts\)/);
    const mounts = (await handed.container.inspect()).Mounts.map((m) => m.Destination);
    expect(mounts).not.toContain('/loot');
  });

  it('ships pids and memory limits, and sends a seccomp profile\'s content so the engine enforces it', async () => {
    const profile = join(tempDir('seccomp'), 'deny-mkdir.json');
    writeFileSync(profile, JSON.stringify({ defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ names: ['mkdir', 'mkdirat'], action: 'SCMP_ACT_ERRNO' }] }));
    const ws = await DockerWorkspace.open(sandbox(config({ docker: { seccompProfile: profile } })), { sessionKey: 'seccomp', agentId: 'sec', workspaceDir: makeWorkspace() });
    const info = await ws.handle.container.inspect();
    expect(info.HostConfig).toMatchObject({ PidsLimit: 512, Memory: 2 * 1024 ** 3 });
    const denied = await sh(ws, 'mkdir /tmp/nope');
    expect(denied.code).not.toBe(0);
    expect(denied.out).toMatch(/not permitted/i);
  });

  it('refuses an allow-all seccomp profile, capDrop [] and a root user before creating anything, unless overridden', async () => {
    const allowAll = join(tempDir('seccomp'), 'allow-all.json');
    writeFileSync(allowAll, JSON.stringify({ defaultAction: 'SCMP_ACT_ALLOW' }));
    const ctx = { sessionKey: 'weak', agentId: 'weak', workspaceDir: makeWorkspace() };
    for (const weak of [{ seccompProfile: allowAll }, { capDrop: [] }, { user: '0:0' }, { readOnlyRoot: false }]) {
      await expect(sandbox(config({ docker: weak })).ensureContainer(ctx)).rejects.toMatchObject({ code: 'SECURITY_VIOLATION', message: expect.stringContaining('dangerouslyAllow') });
    }
    expect(await docker.listContainers({ all: true, filters: { label: [`pincer.deployment=${DEPLOYMENT}`, 'pincer.agentId=weak'] } })).toEqual([]);
    const kept = await sandbox(config({ docker: { capDrop: [], dangerouslyAllowCapabilities: true } })).ensureContainer(ctx);
    expect((await kept.container.inspect()).HostConfig.CapDrop ?? []).toEqual([]);
  });

  it('keeps a skill directory read-only under /agent too, for file tools and commands', async () => {
    const agent = makeWorkspace();
    mkdirSync(join(agent, '.agents', 'skills', 'x'), { recursive: true });
    const ws = await DockerWorkspace.open(sandbox(config()), { sessionKey: 'skills', agentId: 'sk', workspaceDir: tempDir('ws'), agentWorkspaceDir: agent });
    for (const path of ['/agent/skills/demo/SKILL.md', '/workspace/skills/demo/SKILL.md']) {
      expect((await sh(ws, `echo injected >> ${path}`)).code, path).not.toBe(0);
      await expect(ws.write(path, 'injected'), path).rejects.toMatchObject({ code: 'READ_ONLY_MOUNT' });
    }
    expect((await sh(ws, 'touch /agent/.agents/skills/x/new')).code).not.toBe(0);
    expect((await sh(ws, 'echo ok > /agent/notes.txt')).code).toBe(0);
    expect(readFileSync(join(agent, 'skills', 'demo', 'SKILL.md'), 'utf8')).not.toContain('injected');
  });
});
