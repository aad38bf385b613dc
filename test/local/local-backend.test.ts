import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLocalBackend } from '../../plugins/sandbox-local/src/backend.js';
import type { HandlerContext } from '../../sdk/plugin-api.js';

let root: string;
const ctx = (): HandlerContext => ({ signal: new AbortController().signal, settings: {}, log: {} as HandlerContext['log'] });

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'pincer-backend-')));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

describe('local sandbox backend', () => {
  it('prepares a session on a host directory and serves its operations', async () => {
    const backend = createLocalBackend();
    expect(await backend.prepare({ session: 's', backendId: 'local', workspaceDir: root }, ctx())).toEqual({ session: 's', workdir: '/workspace', reused: false });
    await backend.operations.write!({ session: 's', path: 'a.txt', content: 'hi' }, ctx());
    expect(await backend.operations.read!({ session: 's', path: '/workspace/a.txt' }, ctx())).toMatchObject({ content: 'hi', path: '/workspace/a.txt' });
    expect(await backend.operations.exec!({ session: 's', command: 'cat a.txt' }, ctx())).toMatchObject({ stdout: 'hi', exitCode: 0 });
    expect(await backend.prepare({ session: 's', backendId: 'local', workspaceDir: root }, ctx())).toMatchObject({ reused: true });
  });

  it('throws wire-ready workspace errors carrying data.code', async () => {
    const backend = createLocalBackend();
    await backend.prepare({ session: 's', backendId: 'local', workspaceDir: root }, ctx());
    await expect(backend.operations.read!({ session: 's', path: '/etc/passwd' }, ctx())).rejects.toMatchObject({
      name: 'WorkspaceError',
      code: 'PATH_NOT_ADMITTED',
      data: { code: 'PATH_NOT_ADMITTED', path: '/etc/passwd' },
    });
  });

  it('refuses a workspace directory that is missing or relative, and unknown config keys', async () => {
    const backend = createLocalBackend();
    await expect(backend.prepare({ session: 's', backendId: 'local', workspaceDir: path.join(root, 'nope') }, ctx())).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    await expect(backend.prepare({ session: 's', backendId: 'local', workspaceDir: 'relative' }, ctx())).rejects.toMatchObject({ data: { code: 'PATH_NOT_ADMITTED' } });
    await expect(backend.prepare({ session: 's', backendId: 'local', workspaceDir: root, config: { binds: [] } }, ctx())).rejects.toThrow(/binds/);
  });

  it('mounts extra directories read-only and honours a read-only workspace', async () => {
    const docs = path.join(root, 'docs');
    const ws = path.join(root, 'ws');
    await fs.mkdir(docs);
    await fs.mkdir(ws);
    const backend = createLocalBackend();
    await backend.prepare({ session: 's', backendId: 'local', workspaceDir: ws, readOnly: true, config: { readOnlyMounts: [{ hostRoot: docs, containerRoot: '/docs' }] } }, ctx());
    await expect(backend.operations.write!({ session: 's', path: 'a.txt', content: 'x' }, ctx())).rejects.toMatchObject({ data: { code: 'READ_ONLY_MOUNT' } });
    await expect(backend.operations.mkdir!({ session: 's', path: '/docs/x' }, ctx())).rejects.toMatchObject({ data: { code: 'READ_ONLY_MOUNT' } });
  });

  it('refuses the protected paths of prepare through the wire, and reads them', async () => {
    await fs.mkdir(path.join(root, '.git'));
    await fs.writeFile(path.join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const backend = createLocalBackend();
    await backend.prepare({ session: 's', backendId: 'local', workspaceDir: root, protectedPaths: ['.git', 'pincer.config.json'] }, ctx());
    await expect(backend.operations.write!({ session: 's', path: '.git/HEAD', content: 'x' }, ctx())).rejects.toMatchObject({ data: { code: 'PROTECTED_PATH' } });
    await expect(backend.operations.write!({ session: 's', path: 'pincer.config.json', content: '{}' }, ctx())).rejects.toMatchObject({ data: { code: 'PROTECTED_PATH' } });
    expect(await backend.operations.read!({ session: 's', path: '.git/HEAD' }, ctx())).toMatchObject({ content: 'ref: refs/heads/main\n' });
  });

  it('refuses a protected path that is not workspace-relative, and misspelt plugin settings', async () => {
    const backend = createLocalBackend();
    await expect(backend.prepare({ session: 's', backendId: 'local', workspaceDir: root, protectedPaths: ['.git', '/etc'] }, ctx()))
      .rejects.toMatchObject({ data: { code: 'PATH_NOT_ADMITTED' }, message: expect.stringContaining('protectedPaths[1] "/etc"') });
    const withSettings = { ...ctx(), settings: { allowHardlinks: true } };
    await expect(backend.prepare({ session: 's', backendId: 'local', workspaceDir: root }, withSettings)).rejects.toThrow(/allowHardlinks/);
  });

  it('reads a hard-linked file only when the plugin settings allow hard links', async () => {
    await fs.writeFile(path.join(root, 'a.txt'), 'twin');
    await fs.link(path.join(root, 'a.txt'), path.join(root, 'b.txt'));
    const strict = createLocalBackend();
    await strict.prepare({ session: 's', backendId: 'local', workspaceDir: root }, ctx());
    await expect(strict.operations.read!({ session: 's', path: 'b.txt' }, ctx())).rejects.toMatchObject({ data: { code: 'HARD_LINKED' } });
    const allowing = createLocalBackend();
    await allowing.prepare({ session: 's', backendId: 'local', workspaceDir: root }, { ...ctx(), settings: { allowHardLinks: true } });
    expect(await allowing.operations.read!({ session: 's', path: 'b.txt' }, ctx())).toMatchObject({ content: 'twin' });
  });

  it('refuses operations on a session that was never prepared or was released', async () => {
    const backend = createLocalBackend();
    await backend.prepare({ session: 's', backendId: 'local', workspaceDir: root }, ctx());
    await backend.release!('s', ctx());
    await expect(Promise.resolve().then(() => backend.operations.stat!({ session: 's', path: '.' }, ctx()))).rejects.toThrow(/not prepared/);
  });
});
