import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConfig } from '../../kernel/config/validate.js';
import { createKernel, type PincerConfig } from '../../kernel/index.js';
import { createProtectedPaths, normalizeProtectedPath } from '../../kernel/workspace/protected-paths.js';

const root = path.resolve(import.meta.dirname, '../..');
const probe = path.join(root, 'dist/test/fixtures/plugins/session-probe.js');
const cli = path.join(root, 'dist/cli/main.js');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'pincer-protected-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tools.fs.protectedPaths', () => {
  it('takes workspace-relative POSIX paths and refuses the rest with its config path', () => {
    expect(normalizeProtectedPath('./secrets//keys/')).toEqual({ path: 'secrets/keys' });
    expect(normalizeProtectedPath('a\\b')).toEqual({ path: 'a/b' });
    const result = checkConfig({ tools: { fs: { protectedPaths: ['/etc', 'ok', '../up', '.', 'C:/x'] } } });
    expect(result.ok).toBe(false);
    expect(result.issues.map((issue) => issue.path)).toEqual(['tools.fs.protectedPaths[0]', 'tools.fs.protectedPaths[2]', 'tools.fs.protectedPaths[3]', 'tools.fs.protectedPaths[4]']);
    expect(result.issues[0].message).toMatch(/relative to the workspace/);
  });

  it('defaults to .git and .pincer, and always adds the loaded config file when it lies inside the workspace', () => {
    const ws = path.join(dir, 'ws');
    mkdirSync(path.join(ws, 'conf'), { recursive: true });
    const link = path.join(dir, 'link');
    symlinkSync(ws, link);
    const inside = createProtectedPaths(undefined, path.join(ws, 'conf', 'pincer.json'), [ws]);
    expect(inside(ws)).toEqual(['.git', '.pincer', 'conf/pincer.json']);
    // Named through a symlink, the workspace still contains the config.
    expect(inside(link)).toEqual(['.git', '.pincer', 'conf/pincer.json']);
    expect(createProtectedPaths(['secrets'], path.join(dir, 'elsewhere.json'), [ws])(ws)).toEqual(['secrets']);
    expect(createProtectedPaths([], undefined, [])(ws)).toEqual([]);
  });

  it('refuses an invalid entry even in a config that skipped validation, naming its path', () => {
    expect(() => createKernel({ tools: { fs: { protectedPaths: ['.git', '../up'] } } })).toThrow(/tools\.fs\.protectedPaths\[1\]: protected path "\.\.\/up" must stay inside the workspace/);
  });
});

describe('the protected paths of a session', () => {
  const recorderConfig = (ws: string): PincerConfig => ({
    plugins: [
      { id: 'reader', module: probe, env: { PINCER_PLUGIN_ID: 'reader' } },
      { id: 'recorder', module: probe, env: { PINCER_PLUGIN_ID: 'recorder', PROBE_BACKEND: 'recorder' } },
    ],
    tools: { fs: { protectedPaths: ['.git', 'secrets/'] }, sandbox: { tools: { allow: [] } } },
    agents: { defaults: { sandbox: { mode: 'all', backend: 'recorder' } }, list: [{ id: 'main', workspace: ws }] },
  });

  it('reach the backend in sandbox/prepare, with the config file the kernel loaded', async () => {
    const ws = mkdtempSync(path.join(dir, 'lib-'));
    // A relative config path is the kernel's cwd's, as a relative workspace is.
    const kernel = createKernel(recorderConfig(ws), { logger: () => undefined, cwd: ws, configPath: 'pincer.config.json' });
    await kernel.start();
    try {
      const result = await kernel.assembleTools({ sessionKey: 's1' }).execute('peek', { path: '@prepare' });
      const prepared = JSON.parse(result.content.map((block) => ('text' in block ? block.text : '')).join(''));
      expect(prepared).toMatchObject({ workspaceDir: ws, protectedPaths: ['.git', 'secrets', 'pincer.config.json'], config: { agentId: 'main', sessionKey: 's1' } });
    } finally {
      await kernel.stop();
    }
  });

  it('include the config file the CLI loaded', () => {
    const ws = mkdtempSync(path.join(dir, 'cli-'));
    writeFileSync(path.join(ws, 'pincer.config.json'), JSON.stringify(recorderConfig('.')));
    const out = execFileSync(process.execPath, [cli, 'call', 'peek', '{"path":"@prepare"}', '--json'], { cwd: ws, encoding: 'utf8' });
    expect(out).toContain('\\"protectedPaths\\":[\\".git\\",\\"secrets\\",\\"pincer.config.json\\"]');
  });
});
