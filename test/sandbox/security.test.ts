import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeSandboxConfigHash } from '../../sdk/sandbox/config-hash.js';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';
import { buildDockerCreateParams } from '../../sdk/sandbox/docker-create-params.js';
import { resolveSandboxDockerUser } from '../../sdk/sandbox/docker-user.js';
import { resolveSandboxMounts } from '../../sdk/sandbox/mounts.js';
import { buildSandboxContainerName, formatRecreateHint } from '../../sdk/sandbox/naming.js';
import { validateSandboxSecurity } from '../../sdk/sandbox/validate-security.js';
import { selectPrunable, selectForRecreate } from '../../sdk/sandbox/lifecycle.js';
import { makeWorkspace } from './fixtures.js';
import { tempDir } from './services.js';

const home = tempDir('home');
mkdirSync(join(home, '.ssh'));
const env = { home };
const refuse = (config: Parameters<typeof validateSandboxSecurity>[0]) => {
  try {
    validateSandboxSecurity(config, env);
  } catch (e) {
    return e as Error & { code: string };
  }
  throw new Error('expected a SECURITY_VIOLATION');
};

describe('validateSandboxSecurity', () => {
  it.each(['/:/host', '/etc:/e:ro', '/var/run/docker.sock:/var/run/docker.sock', '/run:/r', '/proc/1:/p'])('refuses bind %s naming the bind and the fix', (bind) => {
    const e = refuse({ binds: [bind] });
    expect(e.code).toBe('SECURITY_VIOLATION');
    expect(e.message).toContain(`bind mount "${bind}"`);
    expect(e.message).toContain('sandbox.docker.binds');
  });

  it('refuses credential directories under the home: directly, by covering them, and through a symlinked parent', () => {
    expect(refuse({ binds: [`${home}/.ssh:/keys`] }).message).toContain(`${home}/.ssh`);
    expect(refuse({ binds: [`${home}/.aws/credentials:/c`] }).message).toContain('.aws');
    expect(refuse({ binds: [`${home}:/home`] }).message).toContain('covers');
    const links = tempDir('links');
    symlinkSync('/etc', join(links, 'innocent'));
    symlinkSync(home, join(links, 'h'));
    expect(refuse({ binds: [`${links}/innocent/not-yet-there:/x`] }).message).toContain('resolves to "/etc/not-yet-there"');
    expect(refuse({ binds: [`${links}/h/.ssh:/x`] }).message).toContain('.ssh');
  });

  it('refuses relative sources and reserved targets unless overridden', () => {
    expect(refuse({ binds: ['data:/data'] }).message).toContain('non-absolute');
    const ws = makeWorkspace();
    expect(refuse({ binds: [`${ws}/src:/workspace`] }).message).toContain('reserved container path "/workspace"');
    expect(refuse({ binds: [`${ws}/src:/agent/x`] }).message).toContain('dangerouslyAllowReservedContainerTargets');
    expect(() => validateSandboxSecurity({ binds: [`${ws}/src:/workspace/src`], dangerouslyAllowReservedContainerTargets: true }, env)).not.toThrow();
  });

  it('keeps bind sources inside the allowed roots unless overridden', () => {
    const ws = makeWorkspace();
    const other = tempDir('other');
    expect(refuse({ binds: [`${other}:/data`], allowedSourceRoots: [ws] }).message).toContain('outside the allowed roots');
    expect(() => validateSandboxSecurity({ binds: [`${ws}/src:/data`], allowedSourceRoots: [ws] }, env)).not.toThrow();
    expect(() => validateSandboxSecurity({ binds: [`${other}:/data`], allowedSourceRoots: [ws], dangerouslyAllowExternalBindSources: true }, env)).not.toThrow();
  });

  it('refuses host and container:* networking and unconfined profiles', () => {
    expect(refuse({ network: 'HOST' }).message).toContain('network mode "HOST" is blocked');
    expect(refuse({ network: 'container:db' }).message).toContain('dangerouslyAllowContainerNamespaceJoin');
    expect(() => validateSandboxSecurity({ network: 'container:db', dangerouslyAllowContainerNamespaceJoin: true }, env)).not.toThrow();
    expect(refuse({ seccompProfile: 'Unconfined' }).message).toContain('seccomp');
    expect(refuse({ apparmorProfile: 'unconfined' }).message).toContain('AppArmor');
    expect(() => validateSandboxSecurity({ network: 'none', seccompProfile: '/p.json' }, env)).not.toThrow();
  });
});

describe('config hash, naming, mounts, create params', () => {
  it('hashes with sorted keys and dropped undefined, but keeps array order', () => {
    expect(computeSandboxConfigHash({ b: 1, a: { y: 2, x: undefined } })).toBe(computeSandboxConfigHash({ a: { y: 2 }, b: 1 }));
    expect(computeSandboxConfigHash({ dns: ['1', '2'] })).not.toBe(computeSandboxConfigHash({ dns: ['2', '1'] }));
    expect(computeSandboxConfigHash({ l: [1, undefined, 2] })).toBe(computeSandboxConfigHash({ l: [1, 2] }));
    expect(computeSandboxConfigHash({})).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names containers from prefix and slugged scope key within 63 characters', () => {
    expect(buildSandboxContainerName('pincer-sbx-', 'shared', 'x')).toBe('pincer-sbx-shared');
    expect(buildSandboxContainerName('pincer-sbx-', 'session', 'Agent:Main/Chat 1')).toMatch(/^pincer-sbx-agent-main-chat-1-[0-9a-f]{8}$/);
    const long = buildSandboxContainerName('pincer-sbx-', 'session', 'x'.repeat(200));
    expect(long.length).toBeLessThanOrEqual(63);
    expect(buildSandboxContainerName('p-', 'session', 'a:b')).not.toBe(buildSandboxContainerName('p-', 'session', 'a-b'));
    expect(formatRecreateHint('agent', 'agent:ops', 'ops')).toBe('pincer sandbox recreate --agent ops');
  });

  it('mounts skills read-only over a writable workspace, and everything read-only for ro', () => {
    const ws = makeWorkspace();
    const agent = makeWorkspace();
    const rw = resolveSandboxMounts({ workspaceDir: ws, agentWorkspaceDir: agent, workdir: '/workspace', workspaceAccess: 'rw' });
    expect(rw.map((m) => [m.containerPath, m.readOnly])).toEqual([['/workspace', false], ['/agent', false], ['/workspace/skills', true]]);
    const ro = resolveSandboxMounts({ workspaceDir: ws, agentWorkspaceDir: agent, workdir: '/workspace', workspaceAccess: 'ro' });
    expect(ro.every((m) => m.readOnly)).toBe(true);
    const none = resolveSandboxMounts({ workspaceDir: ws, agentWorkspaceDir: agent, workdir: '/workspace', workspaceAccess: 'none' });
    expect(none.map((m) => m.containerPath)).toEqual(['/workspace']);
  });

  it('builds hardened create params with limits and labels', () => {
    const config = resolveSandboxConfig({ docker: { pidsLimit: 64, memory: '256m', cpus: 0.5, ulimits: { nofile: { soft: 100, hard: 200 } } } });
    const p = buildDockerCreateParams({ name: 'n', docker: config.docker, mounts: [], scope: 'agent', scopeKey: 'agent:main', agentId: 'main', configHash: 'h', createdAtMs: 1 });
    expect(p.HostConfig).toMatchObject({ ReadonlyRootfs: true, NetworkMode: 'none', CapDrop: ['ALL'], SecurityOpt: ['no-new-privileges'], PidsLimit: 64, Memory: 256 * 1024 ** 2, NanoCpus: 5e8, Ulimits: [{ Name: 'nofile', Soft: 100, Hard: 200 }] });
    expect(Object.keys(p.HostConfig?.Tmpfs ?? {})).toEqual(['/tmp', '/var/tmp', '/run']);
    expect(p.Env).toContain('LANG=C.UTF-8');
    expect(p.Labels).toMatchObject({ 'pincer.sandbox': '1', 'pincer.configHash': 'h', 'pincer.sessionKey': 'agent:main' });
  });

  it('defaults the container user to the workspace owner', () => {
    expect(resolveSandboxDockerUser({ workspaceDir: '/x', stat: () => ({ uid: 1000, gid: 100 }) })).toBe('1000:100');
    expect(resolveSandboxDockerUser({ configuredUser: ' app ', workspaceDir: '/x' })).toBe('app');
    expect(resolveSandboxDockerUser({ workspaceDir: '/nonexistent/x' })).toBeUndefined();
    expect(resolveSandboxDockerUser({ workspaceDir: '/x', backend: 'ssh', stat: () => ({ uid: 1, gid: 1 }) })).toBeUndefined();
  });

  it('selects sandboxes to prune and recreate', () => {
    const now = 10 * 86_400_000;
    const infos = [
      { name: 'idle', backendId: 'docker', scopeKey: 's1', running: true, createdAtMs: now - 3_600_000 * 30, lastUsedAtMs: now - 3_600_000 * 25 },
      { name: 'fresh', backendId: 'docker', scopeKey: 'agent:ops', agentId: 'ops', running: true, createdAtMs: now - 1000, lastUsedAtMs: now },
      { name: 'old', backendId: 'docker', scopeKey: 's3', running: true, createdAtMs: now - 8 * 86_400_000, lastUsedAtMs: now },
    ];
    expect(selectPrunable(infos, { idleHours: 24, maxAgeDays: 7, now }).map((i) => i.name)).toEqual(['idle', 'old']);
    expect(selectPrunable(infos, { idleHours: 0, maxAgeDays: 0, now })).toEqual([]);
    expect(selectForRecreate(infos, { agent: 'ops' }).map((i) => i.name)).toEqual(['fresh']);
    expect(selectForRecreate(infos, { session: 's1' }).map((i) => i.name)).toEqual(['idle']);
    expect(selectForRecreate(infos, { all: true })).toHaveLength(3);
  });
});
