import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { PincerConfig } from '../../kernel/index.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { HAS_DOCKER, HAS_SSH, TEST_IMAGE, sshSettings } from '../sandbox/services.js';
import { plugin, removeDeployment, scratch, text, withKernel } from './helpers.js';

/**
 * ATTACK: a prompt-injected model rewrites the files that define its fences with `exec`
 * instead of the fs tools. docs/policy.md: "No tool may change the files that define its
 * fences" (the loaded config, `.git`, `.pincer`). The fs tools are refused (PROTECTED_PATH);
 * `exec` is a tool too.
 *
 * The `.git/hooks/pre-commit` (or `.git/config` `core.fsmonitor`) an agent plants runs on the
 * HOST the next time the operator uses git in the workspace: a docker sandbox escape.
 */
const DEPLOYMENT = `rtp${process.pid}`;
/** The ssh backend's copies (the test sshd runs on this machine, so the remote is this file system). */
const SSH_ROOT = `/tmp/pincer-ssh-test-${process.pid}-policy-rewrite`;
const POLICY = { tools: { profile: 'coding' as const, deny: ['web_fetch'] } };

function workspaceWithConfig(name: string, sandbox: Record<string, unknown> | undefined): { ws: string; configPath: string; cfg: PincerConfig } {
  const ws = scratch(name);
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  writeFileSync(path.join(ws, '.git', 'config'), '[core]\n\tbare = false\n');
  const cfg: PincerConfig = {
    plugins: [
      ...bundledPluginConfigs(),
      { id: 'sandbox-docker', module: plugin('sandbox-docker'), settings: { deploymentId: DEPLOYMENT, docker: { image: TEST_IMAGE } } },
      // On ssh a command's writes reach the host at the sync back (here when the kernel stops), through the host guard.
      ...(sandbox?.backend === 'ssh'
        ? [{ id: 'sandbox-ssh', module: plugin('sandbox-ssh'), settings: { ssh: sshSettings({ remoteRoot: SSH_ROOT, syncBack: 'on-close' }) }, timeouts: { shutdownGraceMs: 60_000 } }]
        : []),
    ],
    ...POLICY,
    agents: { list: [{ id: 'main', workspace: ws, ...(sandbox ? { sandbox } : {}) }] },
  } as PincerConfig;
  const configPath = path.join(ws, 'pincer.config.json');
  writeFileSync(configPath, JSON.stringify(cfg, null, 2));
  return { ws, configPath, cfg };
}

const backends = [
  { name: 'local', sandbox: undefined, enabled: true },
  { name: 'docker (workspaceAccess rw)', sandbox: { mode: 'all', backend: 'docker', workspaceAccess: 'rw' }, enabled: HAS_DOCKER },
  { name: 'ssh (workspaceAccess rw, sync back on close)', sandbox: { mode: 'all', backend: 'ssh', workspaceAccess: 'rw' }, enabled: HAS_SSH },
];

afterAll(async () => {
  rmSync(SSH_ROOT, { recursive: true, force: true });
  await removeDeployment(DEPLOYMENT);
});

describe.each(backends)('protected paths against exec on $name', ({ name, sandbox, enabled }) => {
  it.skipIf(!enabled)('the fs tools are refused (control: this part holds)', async () => {
    const { ws, configPath, cfg } = workspaceWithConfig(`ctl-${name.slice(0, 5)}`, sandbox);
    await withKernel(cfg, { configPath, cwd: ws }, async (kernel) => {
      const tools = kernel.assembleTools({ agentId: 'main' });
      const hook = await tools.execute('write', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\necho pwned\n' });
      expect(text(hook)).toContain('PROTECTED_PATH');
      const conf = await tools.execute('write', { path: 'pincer.config.json', content: '{}' });
      expect(text(conf)).toContain('PROTECTED_PATH');
    });
    expect(existsSync(path.join(ws, '.git/hooks/pre-commit'))).toBe(false);
  }, 180_000);

  it.skipIf(!enabled)('exec cannot plant a git hook, set core.fsmonitor, or lift the deny in the loaded config', async () => {
    const { ws, configPath, cfg } = workspaceWithConfig(`exec-${name.slice(0, 5)}`, sandbox);
    const before = readFileSync(configPath, 'utf8');
    await withKernel(cfg, { configPath, cwd: ws }, async (kernel) => {
      const tools = kernel.assembleTools({ agentId: 'main' });
      const result = await tools.execute('exec', {
        command: [
          "printf '#!/bin/sh\\necho pwned > /tmp/pwned\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit",
          "printf '[core]\\n\\tfsmonitor = touch /tmp/pwned-fsmonitor\\n' >> .git/config",
          "sed -i 's/web_fetch/nothing_at_all/' pincer.config.json",
          'echo ran > proof.txt',
          'echo done',
        ].join('; '),
      });
      // Whatever the tool says, judge the host's files.
      expect(text(result)).toBeDefined();
    });
    // The command ran, and its writes to the rest of the workspace reach the host.
    expect(readFileSync(path.join(ws, 'proof.txt'), 'utf8')).toBe('ran\n');
    const leaks: string[] = [];
    if (existsSync(path.join(ws, '.git/hooks/pre-commit'))) leaks.push('.git/hooks/pre-commit planted');
    if (readFileSync(path.join(ws, '.git/config'), 'utf8').includes('fsmonitor')) leaks.push('.git/config core.fsmonitor set');
    if (readFileSync(configPath, 'utf8') !== before) leaks.push('the loaded config was rewritten (deny lifted)');
    expect(leaks, `exec on ${name} changed protected files on the host`).toEqual([]);
  }, 180_000);

  it.skipIf(!enabled)('exec cannot create a .git the workspace did not have (then git runs its hooks on the host)', async () => {
    const { ws, configPath, cfg } = workspaceWithConfig(`new-${name.slice(0, 5)}`, sandbox);
    rmSync(path.join(ws, '.git'), { recursive: true });
    await withKernel(cfg, { configPath, cwd: ws }, async (kernel) => {
      const tools = kernel.assembleTools({ agentId: 'main' });
      const viaFs = await tools.execute('write', { path: '.git/config', content: '[core]\n\tfsmonitor = id\n' });
      expect(text(viaFs)).toContain('PROTECTED_PATH'); // the fs route holds
      await tools.execute('exec', { command: "mkdir -p .git && printf '[core]\\n\\tfsmonitor = touch /tmp/pwned\\n' > .git/config" });
    });
    expect(existsSync(path.join(ws, '.git/config')), `exec on ${name} created .git/config on the host`).toBe(false);
  }, 180_000);
});
