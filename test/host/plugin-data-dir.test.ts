import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PluginHost } from '../../kernel/host/index.js';
import { defaultStateDir } from '../../kernel/host/data-dir.js';
import { fixture, testHost } from './helpers.js';

const env = async (host: PluginHost, id: string): Promise<Record<string, string>> =>
  JSON.parse(((await host.invokeTool(id, 'env', {})).content[0] as { text: string }).text) as Record<string, string>;

describe('each plugin’s private data directory', () => {
  let current: PluginHost | undefined;
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });

  it('is created owner-only before the plugin starts, one per plugin id, and passed in its environment', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'pincer-state-'));
    const dirOf = async (id: string): Promise<string> => {
      const { host } = testHost([{ id, module: fixture('echo') }], { stateDir });
      current = host;
      const dir = (await env(host, id)).PINCER_PLUGIN_DATA_DIR!;
      await host.stop();
      return dir;
    };
    const one = await dirOf('one');
    const two = await dirOf('two');
    expect(one).toBe(path.join(stateDir, 'plugins', 'one'));
    expect(two).toBe(path.join(stateDir, 'plugins', 'two'));
    for (const dir of [one, two]) {
      const stat = lstatSync(dir);
      expect(stat.isDirectory()).toBe(true);
      expect(stat.mode & 0o777).toBe(0o700);
      expect(stat.uid).toBe(process.getuid!());
    }
    expect(statSync(path.join(stateDir, 'plugins')).mode & 0o077).toBe(0);
  });

  it('is tightened to 0700 when it exists with looser bits', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'pincer-state-'));
    mkdirSync(path.join(stateDir, 'plugins', 'loose'), { recursive: true });
    chmodSync(path.join(stateDir, 'plugins', 'loose'), 0o777);
    const { host } = testHost([{ id: 'loose', module: fixture('echo') }], { stateDir });
    current = host;
    await host.start();
    expect(statSync(path.join(stateDir, 'plugins', 'loose')).mode & 0o777).toBe(0o700);
  });

  it.each([
    ['a symlink planted in its place', (dir: string) => symlinkSync(mkdtempSync(path.join(tmpdir(), 'pincer-elsewhere-')), dir), /is not a directory \(a symlink is refused too\)/],
    // Root bypasses mode checks, but ownership is still ours to check: a directory another user owns is not private.
    ['a directory owned by another user', (dir: string) => (mkdirSync(dir), chownSync(dir, 65534, 65534)), /is owned by uid 65534, not by this kernel's user/],
  ])('refuses to start the plugin when it finds %s', async (_what, plant, why) => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'pincer-state-'));
    mkdirSync(path.join(stateDir, 'plugins'), { recursive: true });
    plant(path.join(stateDir, 'plugins', 'victim'));
    const { host } = testHost([{ id: 'victim', module: fixture('echo') }], { stateDir });
    current = host;
    await host.start();
    expect(host.pluginStatus('victim')).toMatchObject({ state: 'failed', pid: undefined, lastError: { code: 'SPAWN_FAILED', message: expect.stringMatching(why) } });
  });

  it('is the plugin’s working directory unless one is configured, and lives under $PINCER_STATE_DIR or ~/.pincer/state', async () => {
    const stateDir = mkdtempSync(path.join(tmpdir(), 'pincer-state-'));
    const { host } = testHost([{ id: 'echo', module: fixture('echo') }], { stateDir });
    current = host;
    const cwd = ((await host.invokeTool('echo', 'cwd', {})).content[0] as { text: string }).text;
    expect(cwd).toBe(path.join(stateDir, 'plugins', 'echo'));
    expect(defaultStateDir({ PINCER_STATE_DIR: '/srv/pincer' })).toBe('/srv/pincer');
    expect(defaultStateDir({ HOME: '/home/x' })).toMatch(/\.pincer\/state$/);
  });
});
