import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeSandboxConfigHash } from '../../sdk/sandbox/config-hash.js';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';
import { buildDockerCreateParams } from '../../sdk/sandbox/docker-create-params.js';
import { resolveSandboxDockerUser } from '../../sdk/sandbox/docker-user.js';
import { selectForRecreate, selectPrunable } from '../../sdk/sandbox/lifecycle.js';
import { resolveSandboxMounts } from '../../sdk/sandbox/mounts.js';
import { buildSandboxContainerName, formatRecreateHint, type SandboxIdentity } from '../../sdk/sandbox/naming.js';
import { makeWorkspace } from './fixtures.js';
import { tempDir } from './services.js';

const identity = (over: Partial<SandboxIdentity> = {}): SandboxIdentity => ({
  prefix: 'pincer-sbx-', deploymentId: 'default', scope: 'session', scopeKey: 'agent:main:chat', agentId: 'main',
  workspaceDir: '/home/a/x', agentWorkspaceDir: '/home/a/x', workspaceAccess: 'rw', ...over,
});

describe('container names', () => {
  it('carry the prefix, the deployment id, a readable slug and a 96-bit hash, within 63 characters', () => {
    expect(buildSandboxContainerName(identity())).toMatch(/^pincer-sbx-default-agent-main-chat-[0-9a-f]{24}$/);
    const long = buildSandboxContainerName(identity({ prefix: 'p'.repeat(20), deploymentId: 'd'.repeat(12), scopeKey: 'x'.repeat(300) }));
    expect(long.length).toBeLessThanOrEqual(63);
    expect(long).toMatch(/-[0-9a-f]{24}$/);
  });

  it('differ for two projects, two agents with one session key, and two deployments', () => {
    const base = buildSandboxContainerName(identity());
    const names = [
      buildSandboxContainerName(identity({ workspaceDir: '/home/a/y', agentWorkspaceDir: '/home/a/y' })),
      buildSandboxContainerName(identity({ agentId: 'support' })),
      buildSandboxContainerName(identity({ deploymentId: 'staging' })),
      buildSandboxContainerName(identity({ scopeKey: 'agent-main-chat' })),
    ];
    for (const name of names) expect(name).not.toBe(base);
    expect(new Set(names).size).toBe(names.length);
  });

  it('let agents share a shared sandbox only when they would see the same mounts', () => {
    const shared = (over: Partial<SandboxIdentity>) => buildSandboxContainerName(identity({ scope: 'shared', scopeKey: 'shared', ...over }));
    expect(shared({ agentId: 'a' })).toBe(shared({ agentId: 'b' }));
    expect(shared({ agentId: 'a' })).not.toBe(shared({ agentId: 'b', workspaceAccess: 'ro' }));
    expect(shared({})).toMatch(/^pincer-sbx-default-shared-[0-9a-f]{24}$/);
  });

  it('quote a session key in the recreate hint so copying it runs nothing else', () => {
    expect(formatRecreateHint('agent', 'agent:ops', 'ops')).toBe('pincer sandbox recreate --agent ops');
    expect(formatRecreateHint('session', 'a:b', 'x')).toBe('pincer sandbox recreate --session a:b');
    expect(formatRecreateHint('session', 'x; rm -rf ~', 'x')).toBe("pincer sandbox recreate --session 'x; rm -rf ~'");
  });
});

describe('mounts', () => {
  it('mounts skills read-only over a writable workspace, and everything read-only for ro', () => {
    const ws = makeWorkspace();
    const agent = tempDir('agent');
    const ro = resolveSandboxMounts({ workspaceDir: ws, agentWorkspaceDir: agent, workdir: '/workspace', workspaceAccess: 'ro' });
    expect(ro.every((m) => m.readOnly)).toBe(true);
    const none = resolveSandboxMounts({ workspaceDir: ws, agentWorkspaceDir: agent, workdir: '/workspace', workspaceAccess: 'none' });
    expect(none.map((m) => m.containerPath)).toEqual(['/workspace']);
    const same = resolveSandboxMounts({ workspaceDir: ws, agentWorkspaceDir: ws, workdir: '/workspace', workspaceAccess: 'rw' });
    expect(same.map((m) => [m.containerPath, m.readOnly])).toEqual([['/workspace', false], ['/workspace/skills', true]]);
  });

  it('makes a skill directory read-only at every path it appears under: /agent, the overlay, a bind of a parent', () => {
    const ws = tempDir('ws');
    const agent = makeWorkspace();
    mkdirSync(join(agent, 'data'));
    const rw = resolveSandboxMounts({ workspaceDir: ws, agentWorkspaceDir: agent, workdir: '/workspace', workspaceAccess: 'rw', binds: [`${agent}:/mnt/agent-copy`, `${agent}/skills/demo:/mnt/one-skill`] });
    const table = Object.fromEntries(rw.map((m) => [m.containerPath, m.readOnly]));
    expect(table).toMatchObject({
      '/workspace': false, '/agent': false, '/workspace/skills': true, '/agent/skills': true,
      '/mnt/agent-copy': false, '/mnt/agent-copy/skills': true, '/mnt/one-skill': true,
    });
  });

  it('protects the workspace\'s own skill directory even when the agent workspace has none', () => {
    const ws = makeWorkspace();
    const agent = tempDir('agent-no-skills');
    writeFileSync(join(agent, 'notes.md'), 'x');
    const rw = resolveSandboxMounts({ workspaceDir: ws, agentWorkspaceDir: agent, workdir: '/workspace', workspaceAccess: 'rw' });
    expect(rw.find((m) => m.containerPath === '/workspace/skills')?.readOnly).toBe(true);
  });
});

describe('config hash, create params, user, selection', () => {
  it('hashes with sorted keys and dropped undefined, but keeps array order', () => {
    expect(computeSandboxConfigHash({ b: 1, a: { y: 2, x: undefined } })).toBe(computeSandboxConfigHash({ a: { y: 2 }, b: 1 }));
    expect(computeSandboxConfigHash({ dns: ['1', '2'] })).not.toBe(computeSandboxConfigHash({ dns: ['2', '1'] }));
    expect(computeSandboxConfigHash({ l: [1, undefined, 2] })).toBe(computeSandboxConfigHash({ l: [1, 2] }));
    expect(computeSandboxConfigHash({})).toMatch(/^[0-9a-f]{64}$/);
  });

  it('builds hardened create params with limits, the deployment label and a seccomp profile\'s content', () => {
    const config = resolveSandboxConfig({ docker: { pidsLimit: 64, memory: '256m', cpus: 0.5, ulimits: { nofile: { soft: 100, hard: 200 } } } });
    const p = buildDockerCreateParams({ name: 'n', docker: config.docker, mounts: [], scope: 'agent', scopeKey: 'agent:main', agentId: 'main', configHash: 'h', deploymentId: 'prod', seccompOption: '{"defaultAction":"SCMP_ACT_ERRNO"}', createdAtMs: 1 });
    expect(p.HostConfig).toMatchObject({ ReadonlyRootfs: true, NetworkMode: 'none', CapDrop: ['ALL'], PidsLimit: 64, Memory: 256 * 1024 ** 2, NanoCpus: 5e8, Ulimits: [{ Name: 'nofile', Soft: 100, Hard: 200 }] });
    expect(p.HostConfig?.SecurityOpt).toEqual(['no-new-privileges', 'seccomp={"defaultAction":"SCMP_ACT_ERRNO"}']);
    expect(Object.keys(p.HostConfig?.Tmpfs ?? {})).toEqual(['/tmp', '/var/tmp', '/run']);
    expect(p.Labels).toMatchObject({ 'pincer.sandbox': '1', 'pincer.deployment': 'prod', 'pincer.configHash': 'h', 'pincer.sessionKey': 'agent:main' });
    const unlimited = resolveSandboxConfig({ docker: { pidsLimit: 0, memory: 0 } });
    const q = buildDockerCreateParams({ name: 'n', docker: unlimited.docker, mounts: [], scope: 'agent', scopeKey: 'k', agentId: 'main', configHash: 'h', deploymentId: 'd', createdAtMs: 1 });
    expect(q.HostConfig).toMatchObject({ PidsLimit: undefined, Memory: undefined });
  });

  it('defaults the container user to the workspace owner', () => {
    expect(resolveSandboxDockerUser({ workspaceDir: '/x', stat: () => ({ uid: 1000, gid: 100 }) })).toBe('1000:100');
    expect(resolveSandboxDockerUser({ configuredUser: ' app ', workspaceDir: '/x' })).toBe('app');
    expect(resolveSandboxDockerUser({ workspaceDir: '/nonexistent/x' })).toBeUndefined();
    expect(resolveSandboxDockerUser({ workspaceDir: '/x', backend: 'ssh', stat: () => ({ uid: 1, gid: 1 }) })).toBeUndefined();
  });

  it('selects sandboxes to prune and recreate, never pruning one with a command running', () => {
    const now = 10 * 86_400_000;
    const infos = [
      { name: 'idle', backendId: 'docker', scopeKey: 's1', running: true, createdAtMs: now - 3_600_000 * 30, lastUsedAtMs: now - 3_600_000 * 25 },
      { name: 'fresh', backendId: 'docker', scopeKey: 'agent:ops', agentId: 'ops', running: true, createdAtMs: now - 1000, lastUsedAtMs: now },
      { name: 'old', backendId: 'docker', scopeKey: 's3', running: true, createdAtMs: now - 8 * 86_400_000, lastUsedAtMs: now },
      { name: 'busy', backendId: 'docker', scopeKey: 's4', running: true, createdAtMs: now - 8 * 86_400_000, activeExecs: 1 },
    ];
    expect(selectPrunable(infos, { idleHours: 24, maxAgeDays: 7, now }).map((i) => i.name)).toEqual(['idle', 'old']);
    expect(selectPrunable(infos, { idleHours: 0, maxAgeDays: 0, now })).toEqual([]);
    expect(selectForRecreate(infos, { agent: 'ops' }).map((i) => i.name)).toEqual(['fresh']);
    expect(selectForRecreate(infos, { session: 's1' }).map((i) => i.name)).toEqual(['idle']);
    expect(selectForRecreate(infos, { all: true })).toHaveLength(4);
  });
});
