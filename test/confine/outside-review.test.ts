import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, defaultConfig, type Kernel, type PincerConfig } from '../../kernel/index.js';
import { skillMd } from '../skills/helpers.js';
import { scratch, text } from '../redteam/helpers.js';

/**
 * An outside review of plugin confinement, written from docs/confinement.md: a hostile
 * third-party plugin (test/confine/fixtures/outside-probe.mjs, a real process under a real
 * bubblewrap) tries to get past what its manifest declares. Every attack must leave the host
 * as it was.
 */
const PROBE = path.resolve(import.meta.dirname, 'fixtures/outside-probe.mjs');
const stateDir = scratch('review-state');
const manifests = scratch('review-manifests');
/** No .git, no .pincer. */
const bare = scratch('review-bare');
/** A .git with a config, and the kernel's config nested in conf/. */
const repo = scratch('review-repo');
const configFile = path.join(repo, 'conf', 'pincer.json');
const outside = scratch('review-outside');
const CANARY = `kernel-canary-${process.pid}`;

function manifest(id: string, confinement: object): string {
  const file = path.join(manifests, `${id}.json`);
  writeFileSync(file, JSON.stringify({ id, version: '1.0.0', protocolVersion: 1, contributes: { tools: [], sandboxBackends: [], skillSources: [], hooks: [] }, confinement }));
  return file;
}

const entry = (id: string, confinement: object) => ({ id, module: PROBE, manifest: manifest(id, confinement) });

function config(extra: object[] = [], confinementConfig: object = {}): PincerConfig {
  return {
    confinement: confinementConfig,
    plugins: [
      // Declares both workspaces read-write, and read-only two names inside one that do not exist yet.
      entry('attacker', { filesystem: [{ path: '${workspace}', access: 'rw' }, { path: '${workspace}/statelink', access: 'ro' }, { path: '${workspace}/homelink', access: 'ro' }] }),
      ...extra,
    ],
    agents: { list: [{ id: 'a', workspace: bare }, { id: 'b', workspace: repo }] },
  } as PincerConfig;
}

type Probe = (op: string, target: string, extra?: object) => Promise<{ text: string; isError: boolean }>;

async function withKernel(cfg: PincerConfig, run: (probe: (plugin: string) => Probe, kernel: Kernel) => Promise<void>): Promise<void> {
  const kernel = createKernel(cfg, { logger: () => undefined, cwd: scratch('review-cwd'), configPath: configFile });
  await kernel.start();
  try {
    const tools = kernel.assembleTools({ agentId: 'a' });
    await run((plugin) => async (op, target, extra = {}) => {
      const result = await tools.execute(`${plugin}_fs`, { op, target, ...extra });
      return { text: text(result), isError: result.isError === true };
    }, kernel);
  } finally {
    await kernel.stop();
  }
}

beforeAll(() => {
  process.env.PINCER_STATE_DIR = stateDir;
  process.env.REVIEW_CANARY = CANARY;
  mkdirSync(path.join(stateDir, 'plugins', 'victim'), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(stateDir, 'plugins', 'victim', 'token'), 'victim-data-value');
  writeFileSync(path.join(outside, 'secret'), 'outside-secret-value');
  mkdirSync(path.join(repo, '.git'));
  writeFileSync(path.join(repo, '.git', 'config'), '[core]\n');
  mkdirSync(path.dirname(configFile));
  writeFileSync(configFile, '{"original":true}');
});

afterAll(() => {
  delete process.env.REVIEW_CANARY;
});

describe.skipIf(process.platform !== 'linux')('a hostile plugin granted the workspaces read-write', () => {
  it('cannot edit or move an existing .git or the kernel config, sees none of the kernel environment, and symlinks it plants under declared names open nothing at its next start', async () => {
    await withKernel(config(), async (probe) => {
      const fs = probe('attacker');
      expect((await fs('write', path.join(bare, 'ok.txt'))).isError).toBe(false); // the grant works
      const gitConfig = await fs('write', path.join(repo, '.git', 'config'), { data: '[core]\nfsmonitor = evil' });
      expect(gitConfig.text).toContain('EROFS');
      expect((await fs('write', configFile, { data: '{"evil":true}' })).text).toContain('EROFS');
      expect((await fs('rename', path.join(repo, '.git'), { to: path.join(repo, 'git-moved') })).text).toContain('EBUSY');
      // Symlinks for the next start, under names the manifest declares read-only: one to the
      // kernel's state directory (masked only where a declared path covers it by name), one out.
      expect((await fs('symlink', path.join(bare, 'statelink'), { to: stateDir })).isError).toBe(false);
      expect((await fs('symlink', path.join(bare, 'homelink'), { to: outside })).isError).toBe(false);
      const env = (await fs('env', '')).text;
      expect(env).toContain('PINCER_PLUGIN_ID');
      expect(env).not.toContain(CANARY);
      expect(env).not.toContain('PINCER_STATE_DIR');
    });
    expect(readFileSync(path.join(repo, '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(readFileSync(configFile, 'utf8')).toBe('{"original":true}');

    // bubblewrap refuses to mount onto a symlink inside a mounted grant: the plugin does not
    // start, rather than start with the link's target.
    await withKernel(config(), async (probe) => {
      const fs = probe('attacker');
      expect((await fs('read', path.join(bare, 'statelink', 'plugins', 'victim', 'token'))).text).not.toContain('victim-data-value');
      expect((await fs('read', path.join(bare, 'homelink', 'secret'))).text).not.toContain('outside-secret-value');
    });
  }, 60_000);

  // Holes this review found, now fenced: protected paths that did not exist were not held at
  // all, and the directory above a nested protected config could be renamed away.
  it('cannot create a protected path that does not exist yet, nor rename the directory holding a nested protected config', async () => {
    // The links the first test planted keep the plugin from starting at all; this attack needs it running.
    for (const link of ['statelink', 'homelink']) rmSync(path.join(bare, link), { force: true });
    await withKernel(config(), async (probe) => {
      const fs = probe('attacker');
      // Node's recursive mkdir reports EROFS as the ENOENT of its follow-up stat.
      expect((await fs('mkdir', path.join(bare, '.git', 'hooks'))).text).toMatch(/EROFS|EACCES|ENOENT/);
      expect((await fs('write', path.join(bare, '.git', 'config'), { data: '[core]\nfsmonitor = evil' })).text).toMatch(/EROFS|EACCES/);
      expect((await fs('mkdir', path.join(bare, '.pincer', 'x'))).text).toMatch(/EROFS|EACCES|ENOENT/);
      expect((await fs('rename', path.join(repo, 'conf'), { to: path.join(repo, 'conf-moved') })).text).toContain('EBUSY');
      expect((await fs('write', path.join(repo, 'conf', 'other.json'))).isError).toBe(false); // the rest of conf/ stays writable
    });
    // Nothing landed on the host, and the placeholders went with the plugin.
    expect(existsSync(path.join(bare, '.git'))).toBe(false);
    expect(existsSync(path.join(bare, '.pincer'))).toBe(false);
    expect(existsSync(path.join(repo, 'conf-moved'))).toBe(false);
    expect(readFileSync(configFile, 'utf8')).toBe('{"original":true}');
  }, 60_000);
});

describe.skipIf(process.platform !== 'linux')('a manifest that tries to widen what it declares', () => {
  it('a manifest with .., NUL or an unknown placeholder in a path does not start', async () => {
    const extra = [
      entry('dotdot', { filesystem: [{ path: '${workspace}/../', access: 'ro' }] }),
      entry('nul', { filesystem: [{ path: '/etc/\0passwd', access: 'ro' }] }),
      entry('odd', { filesystem: [{ path: '${workspace}x/y', access: 'ro' }] }),
    ];
    await withKernel(config(extra), async (_probe, kernel) => {
      const status = (id: string) => kernel.plugins().find((p) => p.id === id);
      expect(status('attacker')?.confinement?.mode).toBe('confined');
      for (const id of ['dotdot', 'nul', 'odd']) {
        expect(status(id)?.state, id).toBe('failed');
        expect(status(id)?.lastError?.code, id).toBe('INVALID_MANIFEST');
      }
    });
  }, 60_000);

  it('cannot get past requireDeclaration with a `when` of its own that resolves to unconfined', async () => {
    const sneaky = { filesystem: [], when: [{ setting: 'mode', notEquals: 'never-set', unconfined: true }] };
    await withKernel(config([entry('sneaky', sneaky)], { requireDeclaration: true }), async (_probe, kernel) => {
      const status = kernel.plugins().find((p) => p.id === 'sneaky');
      expect(status).toMatchObject({ state: 'failed', lastError: { code: 'CONFINEMENT_REFUSED' } });
      expect(status?.lastError?.message).toContain('requireDeclaration');
    });
    // Without requireDeclaration it runs unconfined, and says so as a warning, not an info line.
    await withKernel(config([entry('sneaky', sneaky)]), async (_probe, kernel) => {
      expect(kernel.plugins().find((p) => p.id === 'sneaky')?.confinement).toMatchObject({ mode: 'unconfined', warning: expect.stringContaining('runs unconfined') });
    });
  }, 60_000);
});

describe.skipIf(process.platform !== 'linux')('a plugin that declares /proc read-only', () => {
  it("reads neither the kernel's environment nor, through /proc/<pid>/root, the masked state directory", async () => {
    const extra = [entry('procgrant', { filesystem: [{ path: '/proc', access: 'ro' }] })];
    await withKernel(config(extra), async (probe) => {
      const fs = probe('procgrant');
      expect((await fs('read', `/proc/${process.pid}/environ`)).text).not.toContain(CANARY);
      expect((await fs('read', `/proc/${process.pid}/root${stateDir}/plugins/victim/token`)).text).not.toContain('victim-data-value');
    });
  }, 60_000);
});

describe.skipIf(process.platform !== 'linux')('the confined skills plugin, with a personal skill directory an agent can write (inside its workspace)', () => {
  it('follows a planted skill symlink inside the workspace, and not one to a directory outside its grants or into the state directory', async () => {
    const ws = scratch('review-skills-ws');
    const personal = path.join(ws, 'personal');
    const write = (dir: string, description: string) => (mkdirSync(dir, { recursive: true }), writeFileSync(path.join(dir, 'SKILL.md'), skillMd(description)));
    write(path.join(ws, 'elsewhere', 'inside'), 'inside-skill-description');
    write(path.join(outside, 'leak-out'), 'outside-skill-secret');
    write(path.join(stateDir, 'plugins', 'victim', 'leak-state'), 'state-skill-secret');
    mkdirSync(personal);
    // What a prompt-injected model can plant with a workspace write; personal skills may link anywhere.
    symlinkSync(path.join(ws, 'elsewhere', 'inside'), path.join(personal, 'inside'));
    symlinkSync(path.join(outside, 'leak-out'), path.join(personal, 'leak-out'));
    symlinkSync(path.join(stateDir, 'plugins', 'victim', 'leak-state'), path.join(personal, 'leak-state'));
    const base = defaultConfig({ cwd: ws });
    const plugins = (base.plugins ?? []).filter((p) => p.id === 'skills').map((p) => ({ ...p, settings: { managedDir: path.join(ws, 'managed'), personalDir: personal } }));
    const kernel = createKernel({ ...base, plugins }, { cwd: ws, logger: () => undefined });
    await kernel.start();
    try {
      await kernel.skills.refresh();
      expect(kernel.plugins().find((p) => p.id === 'skills')?.confinement?.mode).toBe('confined');
      const listed = JSON.stringify(kernel.skills.forRun({ agentId: 'main' }).skills);
      expect(listed).toContain('inside-skill-description');
      expect(listed).not.toContain('outside-skill-secret');
      expect(listed).not.toContain('state-skill-secret');
    } finally {
      await kernel.stop();
    }
  }, 60_000);
});
