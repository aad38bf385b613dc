import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PincerConfig } from '../../kernel/index.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { scratch, text, withKernel } from '../redteam/helpers.js';

/**
 * ATTACKS by a command the model runs with `exec` on the local backend in `workspace-write`
 * (the default where bubblewrap works). Each must fail on the host; the same commands under
 * `danger-full-access` succeed (the control), so a failure here is the sandbox's doing.
 */
const hostTmpTarget = path.join('/tmp', `pincer-confine-exec-${process.pid}`);
let server: net.Server;
let port = 0;

beforeAll(async () => {
  server = net.createServer((s) => s.on('error', () => undefined).end('served\n')); // a reset by the probe must not throw
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});
afterAll(() => {
  server?.close();
  rmSync(hostTmpTarget, { force: true });
});

function setup(mode: 'workspace-write' | 'danger-full-access' | undefined) {
  const ws = scratch(`exec-${mode ?? 'default'}`);
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  const plugins = bundledPluginConfigs().map((p) => (p.id === 'sandbox-local' && mode ? { ...p, settings: { exec: { mode } } } : p));
  const cfg = { plugins, agents: { list: [{ id: 'main', workspace: ws }] } } as PincerConfig;
  const configPath = path.join(ws, 'pincer.config.json');
  writeFileSync(configPath, JSON.stringify(cfg));
  return { ws, cfg, configPath };
}

async function run(mode: 'workspace-write' | 'danger-full-access' | undefined, command: string) {
  const { ws, cfg, configPath } = setup(mode);
  const output = await withKernel(cfg, { configPath, cwd: scratch('exec-cwd') }, async (kernel) => text(await kernel.assembleTools({ agentId: 'main' }).execute('exec', { command })));
  return { ws, output, configPath };
}

const ATTACK = () =>
  [
    'echo hacked >> pincer.config.json',
    "printf '#!/bin/sh\\n' > .git/hooks/post-checkout",
    // Around the read-only mounts: through another process's root, in the backend's mount namespace.
    'ws=$(pwd); for p in /proc/[0-9]*; do echo x > $p/root$ws/.git/hooks/post-checkout; done 2>/dev/null',
    `echo escaped > ${hostTmpTarget}`,
    `(exec 3<>/dev/tcp/127.0.0.1/${port} && echo reached-network) 2>/dev/null || true`,
    `bash -c 'cat < /dev/tcp/127.0.0.1/${port}' 2>/dev/null || true`,
    `tr '\\0' '\\n' < /proc/${process.pid}/environ | grep -c '^PATH=' || true`,
    'echo workspace-ok > inside.txt',
    'echo done',
  ].join('; ');

describe.skipIf(process.platform !== 'linux')('exec on the local backend', () => {
  it('the control: danger-full-access reaches all of it', async () => {
    rmSync(hostTmpTarget, { force: true });
    const { ws, output, configPath } = await run('danger-full-access', ATTACK());
    expect(readFileSync(configPath, 'utf8')).toContain('hacked');
    expect(existsSync(path.join(ws, '.git/hooks/post-checkout'))).toBe(true);
    expect(existsSync(hostTmpTarget)).toBe(true);
    expect(output).toContain('served');
    expect(output).toMatch(/^1$/m); // the kernel's environ was readable
    rmSync(hostTmpTarget, { force: true });
  }, 120_000);

  it.each([['workspace-write' as const], [undefined]])('mode %s: cannot write the config, .git/hooks or the host /tmp, reach the network, or read the kernel environ', async (mode) => {
    rmSync(hostTmpTarget, { force: true });
    const { ws, output, configPath } = await run(mode, ATTACK());
    expect(output).toContain('done');
    expect(readFileSync(path.join(ws, 'inside.txt'), 'utf8')).toBe('workspace-ok\n'); // the workspace stays writable
    expect(readFileSync(configPath, 'utf8')).not.toContain('hacked');
    expect(existsSync(path.join(ws, '.git/hooks/post-checkout'))).toBe(false);
    expect(existsSync(hostTmpTarget)).toBe(false);
    expect(output).not.toContain('served');
    expect(output).not.toMatch(/^1$/m);
    expect(existsSync(path.join(ws, '.pincer'))).toBe(false); // the placeholder for the missing protected path is gone
  }, 120_000);

  it('hostFilesystem "hidden": the home directory is out of sight ("read-only" shows it)', async () => {
    const secret = path.join(os.homedir(), `.pincer-confine-exec-${process.pid}`);
    writeFileSync(secret, 'home-secret');
    try {
      const readIn = async (hostFilesystem: 'hidden' | 'read-only') => {
        const ws = scratch(`exec-${hostFilesystem}`);
        const plugins = bundledPluginConfigs().map((p) => (p.id === 'sandbox-local' ? { ...p, settings: { exec: { mode: 'workspace-write', hostFilesystem } } } : p));
        const cfg = { plugins, agents: { list: [{ id: 'main', workspace: ws }] } } as PincerConfig;
        return withKernel(cfg, { cwd: scratch('exec-cwd') }, async (kernel) => text(await kernel.assembleTools({ agentId: 'main' }).execute('exec', { command: `cat ${secret}; ls /usr/bin/env` })));
      };
      expect(await readIn('read-only')).toContain('home-secret');
      const hidden = await readIn('hidden');
      expect(hidden).not.toContain('home-secret');
      expect(hidden).toContain('/usr/bin/env'); // the system directories stay
    } finally {
      rmSync(secret, { force: true });
    }
  }, 120_000);

  it('sees no kernel process: /proc of the command holds only its own sandbox', async () => {
    const { output } = await run('workspace-write', `ls /proc | grep -c '^[0-9]' ; test -e /proc/${process.pid}/environ && echo kernel-visible || echo kernel-hidden`);
    expect(output).toContain('kernel-hidden');
  }, 120_000);
});
