import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createKernel, type PincerConfig } from '../../kernel/index.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { scratch, text } from '../redteam/helpers.js';

/**
 * Where bubblewrap cannot create namespaces (a container without user namespaces), the
 * kernel says so once and follows `confinement.whenUnavailable`; the local backend's exec
 * follows `exec.mode`. A stand-in `bwrap` that fails as a real one does there plays that host.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const PROBE = path.join(ROOT, 'dist/test/fixtures/plugins/confine-probe.js');

function brokenBwrap(): string {
  const dir = scratch('broken-bwrap');
  const file = path.join(dir, 'bwrap');
  writeFileSync(file, '#!/bin/sh\necho "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n');
  chmodSync(file, 0o755);
  return dir;
}

function setup(whenUnavailable: 'default' | 'refuse' | 'unconfined', execMode?: 'workspace-write') {
  const bin = brokenBwrap();
  const ws = scratch('fallback-ws');
  mkdirSync(path.join(ws, '.git'));
  const manifest = path.join(scratch('fallback-manifest'), 'probe.json');
  writeFileSync(manifest, JSON.stringify({ id: 'probe', version: '1.0.0', protocolVersion: 1, contributes: { tools: [], sandboxBackends: [], skillSources: [], hooks: [] }, confinement: { network: 'none' } }));
  const plugins = bundledPluginConfigs().map((p) =>
    p.id === 'sandbox-local' ? { ...p, env: { PATH: `${bin}:/usr/bin:/bin` }, ...(execMode ? { settings: { exec: { mode: execMode } } } : {}) } : p,
  );
  const cfg = {
    confinement: { whenUnavailable, bwrap: path.join(bin, 'bwrap') },
    plugins: [...plugins, { id: 'probe', module: PROBE, manifest }],
    agents: { list: [{ id: 'main', workspace: ws }] },
  } as PincerConfig;
  const lines: string[] = [];
  const kernel = createKernel(cfg, { logger: (e) => lines.push(`${e.level} ${e.message}`), cwd: scratch('fallback-cwd') });
  return { kernel, lines, ws };
}

describe('bubblewrap unusable', () => {
  it('default: says so once, refuses the third-party plugin, starts the bundled ones unconfined with a warning; exec falls back to the host, said once', async () => {
    const { kernel, lines, ws } = setup('default');
    await kernel.start();
    try {
      const tools = kernel.assembleTools({ agentId: 'main' });
      const probe = kernel.plugins().find((p) => p.id === 'probe');
      expect(probe?.state).toBe('failed');
      expect(probe?.lastError?.code).toBe('CONFINEMENT_UNAVAILABLE');
      expect(probe?.lastError?.message).toContain('plugin "probe" declares confinement');
      const first = await tools.execute('exec', { command: 'touch .git/written-on-the-host; echo ran' });
      expect(text(first)).toContain('ran');
      await tools.execute('exec', { command: 'true' });
      const sandboxLocal = kernel.plugins().find((p) => p.id === 'sandbox-local');
      expect(sandboxLocal?.confinement?.mode).toBe('unconfined');
      expect(sandboxLocal?.confinement?.warning).toContain('runs unconfined although it declares confinement');
    } finally {
      await kernel.stop();
    }
    expect(lines.filter((l) => l.includes('plugin confinement is unavailable'))).toHaveLength(1);
    expect(lines.filter((l) => l.includes('commands run with danger-full-access'))).toHaveLength(1);
    // The fallback is the documented danger-full-access: protected paths are not enforced there.
    const { existsSync } = await import('node:fs');
    expect(existsSync(path.join(ws, '.git/written-on-the-host'))).toBe(true);
  }, 120_000);

  it('exec.mode "workspace-write" chosen explicitly: exec is refused rather than run unconfined', async () => {
    const { kernel, ws } = setup('unconfined', 'workspace-write');
    await kernel.start();
    try {
      const result = await kernel.assembleTools({ agentId: 'main' }).execute('exec', { command: 'touch .git/written-on-the-host' });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('SECURITY_VIOLATION');
      expect(text(result)).toContain('bwrap cannot create namespaces');
      expect(kernel.plugins().find((p) => p.id === 'probe')?.confinement?.warning).toContain('runs unconfined');
    } finally {
      await kernel.stop();
    }
    const { existsSync } = await import('node:fs');
    expect(existsSync(path.join(ws, '.git/written-on-the-host'))).toBe(false);
  }, 120_000);
});
