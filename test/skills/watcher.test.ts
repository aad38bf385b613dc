import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPluginTestHarness, type PluginTestHarness } from '../../sdk/testing/index.js';
import { WatcherPool, chokidarWatchFactory, countingSkillFs, type DirectorySkillSource, type WatchFactory } from '../../sdk/skills/index.js';
import { createSkillsPlugin } from '../../plugins/skills/src/plugin.js';
import { TempDirs, skillMd, waitFor, writeTree } from './helpers.js';

const temp = new TempDirs();
const harnesses: PluginTestHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((h) => h.close()));
  temp.cleanup();
});

/** The real chokidar factory, counting the watchers it opens and closes, by path. */
function countingFactory(): WatchFactory & { opened: string[]; closed: string[] } {
  const opened: string[] = [];
  const closed: string[] = [];
  const factory: WatchFactory = (path, options) => {
    opened.push(path);
    const watcher = chokidarWatchFactory(path, options);
    return { on: watcher.on.bind(watcher) as never, close: async () => (closed.push(path), watcher.close()) };
  };
  return Object.assign(factory, { opened, closed });
}

async function plugin(options: { factory?: WatchFactory; fs?: ReturnType<typeof countingSkillFs>; maxWatchedDirectories?: number } = {}) {
  const home = temp.make();
  let told = 0;
  const pool = new WatcherPool({ factory: options.factory, maxWatchedDirectories: options.maxWatchedDirectories, onFallback: () => (told += 1) });
  const definition = createSkillsPlugin({ pool, fs: options.fs });
  const h = await createPluginTestHarness(definition, { settings: { managedDir: join(home, 'managed'), personalDir: join(home, 'personal'), bundledDir: join(home, 'bundled') } });
  harnesses.push(h);
  const source = (label: string) => definition.skillSources!.find((s) => s.label === label) as DirectorySkillSource;
  return { h, home, pool, source, told: () => told };
}

const names = (skills: { name: string }[]) => skills.map((s) => s.name).sort();

describe('watching skill directories', () => {
  it('notices edits, renames and deletes, announcing each new version once it settled', async () => {
    const { h } = await plugin();
    const ws = writeTree(temp.make(), { 'skills/a/SKILL.md': skillMd('first'), 'skills/b/SKILL.md': skillMd('b') });
    const list = () => h.listSkills('pincer-workspace', { workspaceDir: ws });
    const v1 = await list();
    expect(v1.watch).toBe('native');
    const announced = async (after: number) => waitFor(() => (h.skillsChanges.length > after ? h.skillsChanges.at(-1) : undefined), 'a skills/listChanged');

    writeFileSync(join(ws, 'skills/a/SKILL.md'), skillMd('second'));
    const edit = await announced(0);
    expect(edit).toEqual({ label: 'pincer-workspace', workspaceDir: ws, version: expect.not.stringMatching(v1.version) });
    const v2 = await list();
    expect(v2.version).toBe(edit.version);
    expect(v2.skills.find((s) => s.name === 'a')).toMatchObject({ description: 'second', version: expect.not.stringMatching(v1.skills[0].version!) });

    renameSync(join(ws, 'skills/b'), join(ws, 'skills/c'));
    await announced(h.skillsChanges.length);
    expect(names((await list()).skills)).toEqual(['a', 'c']);

    rmSync(join(ws, 'skills/a'), { recursive: true });
    await waitFor(async () => names((await list()).skills).join() === 'c', 'the deleted skill to leave the list');
  });

  it('notices a skills directory created after the first list', async () => {
    const { h } = await plugin();
    const ws = temp.make();
    expect((await h.listSkills('pincer-workspace', { workspaceDir: ws })).skills).toEqual([]);
    writeTree(ws, { 'skills/late/SKILL.md': skillMd('late') });
    await waitFor(() => h.skillsChanges.length > 0, 'a change for the new directory');
    expect(names((await h.listSkills('pincer-workspace', { workspaceDir: ws })).skills)).toEqual(['late']);
  });

  it('shares one watcher per directory between agents and sources, and closes it with the last user', async () => {
    const factory = countingFactory();
    const { h, home, pool } = await plugin({ factory });
    writeTree(home, { 'personal/p/SKILL.md': skillMd('p') });
    const ws = writeTree(temp.make(), { 'skills/w/SKILL.md': skillMd('w') });
    // Two agents with different discovery settings: two lists of the personal source, one directory.
    await h.listSkills('agents-skills-personal', { load: { limits: { maxCandidatesPerRoot: 50 } } });
    await h.listSkills('agents-skills-personal', { load: {} });
    // The workspace's skills/ also reached as an extra directory of a third agent.
    await h.listSkills('pincer-workspace', { workspaceDir: ws });
    await h.listSkills('pincer-extra', { load: { extraDirs: [join(ws, 'skills')] } });
    expect(factory.opened.filter((p) => p === join(home, 'personal'))).toHaveLength(1);
    expect(factory.opened.filter((p) => p === join(ws, 'skills'))).toHaveLength(1);
    expect(pool.size).toBe(new Set(factory.opened).size);
    await h.close();
    harnesses.splice(0);
    expect(pool.size).toBe(0);
    expect(factory.closed.sort()).toEqual([...factory.opened].sort());
  });

  it('coalesces an event storm of a thousand files into a few rescans', async () => {
    const { h, source } = await plugin();
    const ws = writeTree(temp.make(), { 'skills/seed/SKILL.md': skillMd('seed') });
    const load = { limits: { maxCandidatesPerRoot: 1000, maxSkillsLoadedPerSource: 1000 } };
    await h.listSkills('pincer-workspace', { workspaceDir: ws, load });
    const before = source('pincer-workspace').rescans;
    const files: Record<string, string> = {};
    for (let i = 0; i < 250; i += 1) {
      files[`skills/s${i}/SKILL.md`] = skillMd(`skill ${i}`);
      for (const f of ['a.md', 'b.md', 'c.md']) files[`skills/s${i}/${f}`] = 'notes';
    }
    writeTree(ws, files);
    await waitFor(async () => h.skillsChanges.length > 0 && (await h.listSkills('pincer-workspace', { workspaceDir: ws, load })).skills.length === 251, 'all 250 new skills', 60_000);
    const rescans = source('pincer-workspace').rescans - before;
    expect(rescans).toBeGreaterThan(0);
    expect(rescans).toBeLessThan(50);
  });

  it('falls back to rescanning on every list when the OS has no watch handles left, and says so once', async () => {
    const factory: WatchFactory = () => {
      throw Object.assign(new Error('watch limit'), { code: 'ENOSPC' });
    };
    const fs = countingSkillFs();
    const { h, told } = await plugin({ factory, fs });
    const ws = writeTree(temp.make(), { 'skills/a/SKILL.md': skillMd('a') });
    const first = await h.listSkills('pincer-workspace', { workspaceDir: ws });
    expect(first.watch).toBe('fallback');
    const reads = fs.total();
    writeTree(ws, { 'skills/b/SKILL.md': skillMd('b') });
    // No notification can come: the next list rescans and sees the change.
    expect(names((await h.listSkills('pincer-workspace', { workspaceDir: ws })).skills)).toEqual(['a', 'b']);
    expect(fs.total()).toBeGreaterThan(reads);
    await h.listSkills('agents-skills-personal');
    expect(told()).toBe(1);
    expect(h.skillsChanges).toEqual([]);
  });

  it('drops a watcher whose tree passes the directory budget (an agent filling skills/ cannot exhaust the user\'s watch handles)', async () => {
    const { h, pool, told } = await plugin({ maxWatchedDirectories: 20 });
    const files: Record<string, string> = { 'skills/a/SKILL.md': skillMd('a') };
    for (let i = 0; i < 40; i += 1) files[`skills/a/junk/d${i}/x.txt`] = 'x';
    const ws = writeTree(temp.make(), files);
    await waitFor(async () => (await h.listSkills('pincer-workspace', { workspaceDir: ws })).watch === 'fallback', 'the fallback');
    expect(told()).toBe(1);
    // Still current: the list rescans, so a new skill shows without any notification.
    writeTree(ws, { 'skills/b/SKILL.md': skillMd('b') });
    expect(names((await h.listSkills('pincer-workspace', { workspaceDir: ws })).skills)).toEqual(['a', 'b']);
    // The dropped watcher gave its budget back: a small tree is watched natively.
    const small = writeTree(temp.make(), { 'skills/c/SKILL.md': skillMd('c') });
    expect((await h.listSkills('pincer-workspace', { workspaceDir: small })).watch).toBe('native');
    expect(pool.size).toBeGreaterThan(0);
  });

  it('falls back when a running watcher loses its handles, and tells the kernel', async () => {
    let fail: ((error: unknown) => void) | undefined;
    const factory: WatchFactory = (path, options) => {
      const watcher = chokidarWatchFactory(path, options);
      return {
        on: ((event: string, listener: (...args: unknown[]) => void) => {
          if (event === 'error') fail = listener;
          return watcher.on(event as 'all', listener as never);
        }) as never,
        close: () => watcher.close(),
      };
    };
    const { h } = await plugin({ factory });
    const ws = writeTree(temp.make(), { 'skills/a/SKILL.md': skillMd('a') });
    expect((await h.listSkills('pincer-workspace', { workspaceDir: ws })).watch).toBe('native');
    fail!(Object.assign(new Error('inotify'), { code: 'EMFILE' }));
    await waitFor(() => h.skillsChanges.length > 0, 'the change of watch mode');
    expect((await h.listSkills('pincer-workspace', { workspaceDir: ws })).watch).toBe('fallback');
    mkdirSync(join(ws, 'skills/b'));
    writeFileSync(join(ws, 'skills/b/SKILL.md'), skillMd('b'));
    expect(names((await h.listSkills('pincer-workspace', { workspaceDir: ws })).skills)).toEqual(['a', 'b']);
  });
});
