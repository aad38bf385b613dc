import { describe, expect, it } from 'vitest';
import { resolveAgentSandbox } from '../../kernel/config/sandbox-merge.js';
import { createRunResolver } from '../../kernel/assembly/run-shape.js';
import type { PincerConfig } from '../../kernel/config/schema.js';
import { mergeSandboxLayers } from '../../sdk/policy/sandbox-merge.js';
import { resolveSandboxConfig } from '../../sdk/sandbox/config.js';

const defaults = { mode: 'all' as const, scope: 'agent' as const, docker: { pidsLimit: 64, memory: '512m', env: { A: '1', B: '1' }, binds: ['/srv/a:/a'], tmpfs: ['/tmp'], ulimits: { nofile: { soft: 10, hard: 20 } } } };
const config = (agentSandbox: Record<string, unknown>, scope: 'agent' | 'shared' = 'agent'): PincerConfig => ({
  agents: { defaults: { sandbox: { ...defaults, scope } }, list: [{ id: 'main', workspace: '/w', sandbox: agentSandbox }] },
});

describe('layered sandbox settings merge key by key', () => {
  it('keeps the defaults\' pidsLimit, memory and env when an agent sets only image', () => {
    const merged = resolveAgentSandbox(config({ docker: { image: 'mine:1' } }), { id: 'main', sandbox: { docker: { image: 'mine:1' } } });
    expect(merged.docker).toEqual({ ...defaults.docker, image: 'mine:1' });
  });

  it('merges objects key by key, concatenates binds once each, and replaces other arrays whole', () => {
    const merged = mergeSandboxLayers<Record<string, any>>(defaults, { docker: { env: { B: '2', C: '3' }, binds: ['/srv/b:/b', '/srv/a:/a'], tmpfs: [], ulimits: { nofile: { hard: 30 } } } });
    expect(merged.docker.env).toEqual({ A: '1', B: '2', C: '3' });
    expect(merged.docker.binds).toEqual(['/srv/a:/a', '/srv/b:/b']);
    expect(merged.docker.tmpfs).toEqual([]);
    expect(merged.docker.ulimits).toEqual({ nofile: { soft: 10, hard: 30 } });
    expect(defaults.docker.env).toEqual({ A: '1', B: '1' }); // inputs are untouched
  });

  it('keeps the defaults\' docker block with scope shared and ignores only the agent\'s own', () => {
    const cfg = config({ docker: { image: 'agent-only:1', pidsLimit: 9999 } }, 'shared');
    const merged = resolveAgentSandbox(cfg, cfg.agents!.list![0]);
    expect(merged.docker).toEqual(defaults.docker);
    expect(merged.scope).toBe('shared');
  });

  it('is what the kernel sends the backend, and what the backend resolves', () => {
    const cfg = config({ workspaceAccess: 'rw', docker: { image: 'mine:1', env: { C: '3' } } });
    const run = createRunResolver(cfg, { cwd: '/' })({ agentId: 'main', sessionKey: 'agent:main:x' });
    const layer = (run.placement.backendConfig as { sandbox: Record<string, unknown> }).sandbox;
    expect(layer.docker).toEqual({ ...defaults.docker, image: 'mine:1', env: { A: '1', B: '1', C: '3' } });
    const resolved = resolveSandboxConfig({ docker: { cpus: 2, env: { P: 'plugin' }, binds: ['/srv/p:/p'] } }, layer);
    expect(resolved.docker).toMatchObject({ image: 'mine:1', cpus: 2, pidsLimit: 64, memory: '512m', env: { LANG: 'C.UTF-8', P: 'plugin', A: '1', B: '1', C: '3' }, binds: ['/srv/p:/p', '/srv/a:/a'] });
    expect(resolved.workspaceAccess).toBe('rw');
  });
});
