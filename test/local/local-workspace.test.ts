import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalWorkspace } from '../../plugins/sandbox-local/src/local-workspace.js';

let root: string;
let ws: string;
let workspace: LocalWorkspace;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'pincer-local-')));
  ws = path.join(root, 'ws');
  await fs.mkdir(ws);
  await fs.mkdir(path.join(root, 'docs'));
  await fs.writeFile(path.join(root, 'docs', 'guide.md'), '# guide');
  workspace = new LocalWorkspace({ workspaceDir: ws, readOnlyMounts: [{ hostRoot: path.join(root, 'docs'), containerRoot: '/docs' }], maxReadBytes: 4096 });
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('local workspace service', () => {
  it('round-trips utf8 and base64 content', async () => {
    await workspace.write('a.txt', 'héllo');
    expect(await workspace.read('a.txt')).toEqual({ path: '/workspace/a.txt', content: 'héllo', encoding: 'utf8', size: 6, version: expect.any(String) });
    await workspace.write('b.bin', Buffer.from([0, 1, 2, 255]).toString('base64'), { encoding: 'base64' });
    expect((await workspace.read('b.bin', { encoding: 'base64' })).content).toBe('AAEC/w==');
  });

  it('serves an extra mount read-only', async () => {
    expect((await workspace.read('/docs/guide.md')).content).toBe('# guide');
    await expect(workspace.write('/docs/guide.md', 'x')).rejects.toMatchObject({ code: 'READ_ONLY_MOUNT', path: '/docs/guide.md' });
    await expect(workspace.mkdir('/docs/new')).rejects.toMatchObject({ code: 'READ_ONLY_MOUNT' });
  });

  it('refuses absolute host paths and dot-dot escapes', async () => {
    await expect(workspace.read('/etc/passwd')).rejects.toMatchObject({ code: 'PATH_NOT_ADMITTED' });
    await expect(workspace.read('../etc/passwd')).rejects.toMatchObject({ code: 'PATH_OUTSIDE_MOUNT' });
    // '..' that lands inside another mount is admitted: admission is by the resulting path.
    expect((await workspace.read('../docs/guide.md')).path).toBe('/docs/guide.md');
    await expect(workspace.read(`${ws}/a.txt`)).rejects.toMatchObject({ code: 'PATH_NOT_ADMITTED' });
  });

  it('applies the configured byte cap and a per-call cap', async () => {
    await fs.writeFile(path.join(ws, 'big.txt'), 'x'.repeat(5000));
    await expect(workspace.read('big.txt')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    await expect(workspace.read('big.txt', { maxBytes: 100 })).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect((await workspace.read('big.txt', { maxBytes: 10_000 })).size).toBe(5000);
  });

  it('serves stat, readDirectory, mkdir, rename and remove', async () => {
    await workspace.mkdir('a/b', { recursive: true });
    await workspace.write('a/b/f.txt', 'f');
    expect(await workspace.stat('a/b/f.txt')).toMatchObject({ path: '/workspace/a/b/f.txt', isFile: true, size: 1 });
    expect(await workspace.readDirectory('a')).toEqual([expect.objectContaining({ name: 'b', isDirectory: true, isFile: false })]);
    await workspace.rename('a/b/f.txt', 'a/g.txt');
    await workspace.remove('a', { recursive: true });
    expect(await fs.readdir(ws)).toEqual([]);
  });

  it('sets modes explicitly, so a restrictive umask changes nothing', async () => {
    const previous = process.umask(0o077);
    try {
      await fs.writeFile(path.join(ws, 'tool.sh'), '#!/bin/sh\n', { mode: 0o755 });
      await fs.chmod(path.join(ws, 'tool.sh'), 0o755);
      await workspace.write('tool.sh', '#!/bin/sh\necho edited\n');
      await workspace.write('shared.txt', 'x', { mode: 0o664 });
      await workspace.write('setuid.sh', 'x', { mode: 0o4755 });
    } finally {
      process.umask(previous);
    }
    expect((await fs.stat(path.join(ws, 'tool.sh'))).mode & 0o7777).toBe(0o755);
    expect((await fs.stat(path.join(ws, 'shared.txt'))).mode & 0o7777).toBe(0o664);
    expect((await fs.stat(path.join(ws, 'setuid.sh'))).mode & 0o7777).toBe(0o755); // never a set-id bit
  });

  it('refuses every operation once aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(workspace.read('x', {}, controller.signal)).rejects.toThrow();
    await expect(workspace.write('x', 'y', {}, controller.signal)).rejects.toThrow();
    await expect(workspace.exec('true', {}, controller.signal)).rejects.toThrow();
    expect(await fs.readdir(ws)).toEqual([]);
  });
});
