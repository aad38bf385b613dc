import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLED_PLUGINS, bundledPluginConfig, createKernel, defaultConfig } from '../../kernel/index.js';
import { PluginConfinement } from '../../protocol/v1/confinement.js';
import { TempDirs, skillMd, writeTree } from '../skills/helpers.js';

const root = join(import.meta.dirname, '../..');
/** Every plugin the package ships: a folder under plugins/ with a process entry. */
const shipped = readdirSync(join(root, 'plugins')).filter((id) => existsSync(join(root, 'plugins', id, 'src', 'main.ts')));
const manifestOf = (id: string) => JSON.parse(readFileSync(join(root, 'plugins', id, 'pincer-plugin.json'), 'utf8')) as { id: string; confinement?: unknown };
const temp = new TempDirs();

describe('what the bundled plugins declare', () => {
  it('gives every bundled plugin a confinement block: grants, or a stated reason to run unconfined', () => {
    expect(shipped.length).toBeGreaterThanOrEqual(13);
    for (const id of shipped) {
      const manifest = manifestOf(id);
      expect(manifest.id, id).toBe(id);
      const declared = PluginConfinement.safeParse(manifest.confinement);
      expect(declared.success, `plugins/${id}/pincer-plugin.json declares no valid confinement`).toBe(true);
      if (declared.success && 'unconfined' in declared.data) expect(declared.data.unconfined.length, id).toBeGreaterThan(40);
    }
  });

  it('starts only the default plugins lazily: a manifest that declares confinement does not make tasks or a backend lazy', () => {
    for (const id of shipped) expect(bundledPluginConfig(id).lazy === true, id).toBe((BUNDLED_PLUGINS as readonly string[]).includes(id));
  });
});

describe('the default config\'s skills plugin, as a real process', () => {
  const ws = temp.make();
  const home = temp.make();
  writeTree(ws, { 'skills/in-workspace/SKILL.md': skillMd('A workspace skill') });
  writeTree(home, { 'personal/mine/SKILL.md': skillMd('A personal skill outside the workspace') });
  const base = defaultConfig({ cwd: ws });
  const plugins = (base.plugins ?? []).map((p) => (p.id === 'skills' ? { ...p, settings: { managedDir: join(home, 'managed'), personalDir: join(home, 'personal') } } : p));
  const kernel = createKernel({ ...base, plugins }, { cwd: ws, logger: () => undefined });
  afterAll(async () => {
    await kernel.stop();
    temp.cleanup();
  });

  it('runs under bubblewrap with what it declares and still lists workspace and personal skills', async () => {
    await kernel.start();
    await kernel.skills.refresh();
    const status = kernel.plugins().find((p) => p.id === 'skills');
    expect(status).toMatchObject({ state: 'ready', confinement: { mode: 'confined' } });
    expect(status?.confinement?.detail).toContain('${skillRoots} ro');
    expect(status?.confinement?.detail).toContain('no spawn');
    const names = kernel.skills.forRun({ agentId: 'main' }).skills.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['in-workspace', 'mine']));
  });
});
