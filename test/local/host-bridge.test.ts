import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HostFsBridge, openVerified, writeFileAtomic, type PathMapping } from '../../sdk/fs-bridge/index.js';

let root: string;
let ws: string;
let outside: string;
let bridge: HostFsBridge;

beforeEach(async () => {
  root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'pincer-bridge-')));
  ws = path.join(root, 'ws');
  outside = path.join(root, 'outside');
  await fs.mkdir(ws);
  await fs.mkdir(outside);
  await fs.writeFile(path.join(outside, 'secret.txt'), 'secret');
  bridge = new HostFsBridge({ mappings: [{ hostRoot: ws, containerRoot: '/workspace' }], maxReadBytes: 1024 });
});

afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'ok', (error: { code?: string }) => error.code);

describe('host fs bridge path guard', () => {
  it('reads a file through a relative and an absolute workspace path', async () => {
    await fs.writeFile(path.join(ws, 'a.txt'), 'hello');
    expect((await bridge.readFile('a.txt')).data.toString()).toBe('hello');
    expect((await bridge.readFile('/workspace/a.txt')).path).toBe('/workspace/a.txt');
  });

  it('refuses a symlink that points out of the mount to /etc', async () => {
    await fs.symlink('/etc/passwd', path.join(ws, 'passwd'));
    await fs.symlink('/etc', path.join(ws, 'etc'));
    expect(await codeOf(bridge.readFile('passwd'))).toBe('PATH_OUTSIDE_MOUNT');
    expect(await codeOf(bridge.readFile('etc/hostname'))).toBe('PATH_OUTSIDE_MOUNT');
    expect(await codeOf(bridge.readDirectory('etc'))).toBe('PATH_OUTSIDE_MOUNT');
    expect(await codeOf(bridge.stat('passwd'))).toBe('PATH_OUTSIDE_MOUNT');
  });

  it('refuses to write or create directories through a symlink that points out, even a dangling one', async () => {
    await fs.symlink(outside, path.join(ws, 'out'));
    await fs.symlink(path.join(outside, 'not-yet'), path.join(ws, 'dangling'));
    expect(await codeOf(bridge.writeFile('out/new.txt', Buffer.from('x')))).toBe('PATH_OUTSIDE_MOUNT');
    expect(await codeOf(bridge.mkdir('dangling/sub', { recursive: true }))).toBe('PATH_OUTSIDE_MOUNT');
    await expect(fs.access(path.join(outside, 'not-yet'))).rejects.toThrow();
    await expect(fs.access(path.join(outside, 'new.txt'))).rejects.toThrow();
  });

  it('follows a symlink that stays inside the mount and reports the canonical path', async () => {
    await fs.mkdir(path.join(ws, 'real'));
    await fs.writeFile(path.join(ws, 'real', 'f.txt'), 'inside');
    await fs.symlink(path.join(ws, 'real'), path.join(ws, 'alias'));
    const result = await bridge.readFile('alias/f.txt');
    expect(result.data.toString()).toBe('inside');
    expect(result.path).toBe('/workspace/real/f.txt');
    expect(await bridge.resolveReadPolicyPath('alias/f.txt')).toBe('/workspace/real/f.txt');
  });

  it('refuses a read when the final component is swapped for a symlink between check and use', async () => {
    await fs.writeFile(path.join(ws, 'f.txt'), 'ok');
    const guarded = await bridge.guard.admit('f.txt');
    await fs.rm(path.join(ws, 'f.txt'));
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(ws, 'f.txt'));
    expect(await codeOf(openVerified(bridge.guard, guarded))).toBe('PATH_NOT_ADMITTED');
  });

  it('refuses a read when a parent directory is swapped for a symlink between check and use', async () => {
    await fs.mkdir(path.join(ws, 'd'));
    await fs.writeFile(path.join(ws, 'd', 'secret.txt'), 'inside');
    const guarded = await bridge.guard.admit('d/secret.txt');
    await fs.rename(path.join(ws, 'd'), path.join(ws, 'd-old'));
    await fs.symlink(outside, path.join(ws, 'd'));
    expect(await codeOf(openVerified(bridge.guard, guarded))).toBe('PATH_NOT_ADMITTED');
  });

  it('verifies the held directory right before the rename and refuses a swapped parent', async () => {
    await fs.mkdir(path.join(ws, 'd'));
    const guarded = await bridge.guard.admit('d/out.txt', { write: true });
    const swap = async () => {
      await fs.rename(path.join(ws, 'd'), path.join(ws, 'd-old'));
      await fs.symlink(outside, path.join(ws, 'd'));
    };
    await expect(writeFileAtomic(guarded.hostPath, Buffer.from('x'), { beforeRename: swap })).rejects.toMatchObject({ code: 'PATH_NOT_ADMITTED' });
    await expect(fs.access(path.join(outside, 'out.txt'))).rejects.toThrow();
    expect(await fs.readdir(path.join(ws, 'd-old'))).toEqual([]); // the temp file was cleaned up
  });

  it('refuses writes to a read-only mapping, also when reached through a symlink', async () => {
    const skills = path.join(root, 'skills');
    await fs.mkdir(skills);
    await fs.writeFile(path.join(skills, 'SKILL.md'), 'skill');
    const mappings: PathMapping[] = [
      { hostRoot: ws, containerRoot: '/workspace' },
      { hostRoot: skills, containerRoot: '/skills', readOnly: true },
    ];
    const ro = new HostFsBridge({ mappings });
    await fs.symlink(skills, path.join(ws, 'skills-link'));
    expect((await ro.readFile('/skills/SKILL.md')).data.toString()).toBe('skill');
    expect(await codeOf(ro.writeFile('/skills/SKILL.md', Buffer.from('x')))).toBe('READ_ONLY_MOUNT');
    expect(await codeOf(ro.writeFile('skills-link/SKILL.md', Buffer.from('x')))).toBe('READ_ONLY_MOUNT');
    expect(await codeOf(ro.remove('/skills/SKILL.md'))).toBe('READ_ONLY_MOUNT');
    expect(await fs.readFile(path.join(skills, 'SKILL.md'), 'utf8')).toBe('skill');
  });

  it('refuses an expected policy path that no longer names the opened file', async () => {
    await fs.writeFile(path.join(ws, 'a.txt'), 'a');
    await fs.writeFile(path.join(ws, 'b.txt'), 'b');
    await fs.symlink(path.join(ws, 'a.txt'), path.join(ws, 'link'));
    expect((await bridge.readFile('link', { expectedPolicyPath: '/workspace/a.txt' })).data.toString()).toBe('a');
    expect(await codeOf(bridge.readFile('link', { expectedPolicyPath: '/workspace/b.txt' }))).toBe('POLICY_PATH_MISMATCH');
    expect(await codeOf(bridge.stat('link', { expectedPolicyPath: '/workspace/b.txt' }))).toBe('POLICY_PATH_MISMATCH');
    expect(await codeOf(bridge.readFile('a.txt', { expectedPolicyPath: '/workspace/gone.txt' }))).toBe('POLICY_PATH_MISMATCH');
  });

  it('refuses to remove or move a mount root', async () => {
    expect(await codeOf(bridge.remove('/workspace', { recursive: true }))).toBe('PATH_NOT_ADMITTED');
    expect(await codeOf(bridge.rename('.', 'x'))).toBe('PATH_NOT_ADMITTED');
  });

  it('removes a symlink itself, never what it points to', async () => {
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(ws, 'link'));
    await bridge.remove('link');
    expect(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });
});

describe('host fs bridge reads, writes and listings', () => {
  it('fails a read of a missing file with NOT_FOUND and of a directory with NOT_A_FILE', async () => {
    expect(await codeOf(bridge.readFile('missing.txt'))).toBe('NOT_FOUND');
    await fs.mkdir(path.join(ws, 'dir'));
    expect(await codeOf(bridge.readFile('dir'))).toBe('NOT_A_FILE');
  });

  it('refuses a file over the byte cap with FILE_TOO_LARGE', async () => {
    await fs.writeFile(path.join(ws, 'big.bin'), Buffer.alloc(2048, 1));
    await expect(bridge.readFile('big.bin')).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', path: 'big.bin' });
    expect((await bridge.readFile('big.bin', { maxBytes: 4096 })).data.length).toBe(2048);
  });

  it('refuses with FILE_TOO_LARGE a file that grows past the cap after stat', async () => {
    await fs.writeFile(path.join(ws, 'grow.log'), Buffer.alloc(100, 1));
    const guarded = await bridge.guard.admit('grow.log');
    const handle = await openVerified(bridge.guard, guarded);
    try {
      const { readBounded } = await import('../../sdk/fs-bridge/index.js');
      const statBefore = await handle.stat();
      expect(statBefore.size).toBe(100);
      // The file grows after the stat but before the read.
      await fs.appendFile(path.join(ws, 'grow.log'), Buffer.alloc(5000, 2));
      const grewAfterStat = readBounded(Object.assign(Object.create(handle), { stat: async () => statBefore, read: handle.read.bind(handle) }), 1024, 'grow.log');
      await expect(grewAfterStat).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringMatching(/grew/) });
    } finally {
      await handle.close();
    }
  });

  it('reads a file larger than the synchronous part whole, byte for byte (sync first part, pooled rest)', async () => {
    const { SYNC_READ_MAX_BYTES } = await import('../../sdk/fs-bridge/bounded-read.js');
    const size = SYNC_READ_MAX_BYTES * 2 + 12_345; // crosses the boundary, not on a multiple of it
    const bytes = Buffer.from(Array.from({ length: size }, (_, i) => (i * 7 + (i >> 11)) & 0xff));
    await fs.writeFile(path.join(ws, 'large.bin'), bytes);
    const read = await bridge.readFile('large.bin', { maxBytes: size });
    expect(read.data.equals(bytes)).toBe(true);
    await expect(bridge.readFile('large.bin', { maxBytes: size - 1 })).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
  });

  it('refuses with FILE_TOO_LARGE a raw-fd read whose file grew past the cap after its fstat, across the sync boundary', async () => {
    const { SYNC_READ_MAX_BYTES, readBoundedFd } = await import('../../sdk/fs-bridge/bounded-read.js');
    const { openSync, closeSync } = await import('node:fs');
    await fs.writeFile(path.join(ws, 'grow.bin'), Buffer.alloc(100, 1));
    const fd = openSync(path.join(ws, 'grow.bin'), 'r');
    try {
      await fs.appendFile(path.join(ws, 'grow.bin'), Buffer.alloc(SYNC_READ_MAX_BYTES * 2, 2));
      // fstat said 100 bytes; the file now holds far more than the cap, past the synchronous part.
      await expect(readBoundedFd(fd, SYNC_READ_MAX_BYTES + 10, 'grow.bin', 100)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE', message: expect.stringMatching(/grew/) });
      const whole = await readBoundedFd(fd, SYNC_READ_MAX_BYTES * 3, 'grow.bin', 100);
      expect(whole.length).toBe(100 + SYNC_READ_MAX_BYTES * 2);
    } finally {
      closeSync(fd);
    }
  });

  it('refuses to open a FIFO as a file instead of hanging', async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [path.join(ws, 'pipe')]);
    expect(await codeOf(bridge.readFile('pipe'))).toBe('NOT_A_FILE');
  });

  it('writes atomically: a failed write leaves the old file whole and no temp file behind', async () => {
    await fs.writeFile(path.join(ws, 'a.txt'), 'old content');
    const failing = writeFileAtomic(path.join(ws, 'a.txt'), Buffer.from('new content'), {
      beforeRename: async () => {
        throw new Error('simulated crash before rename');
      },
    });
    await expect(failing).rejects.toThrow(/simulated crash/);
    expect(await fs.readFile(path.join(ws, 'a.txt'), 'utf8')).toBe('old content');
    expect(await fs.readdir(ws)).toEqual(['a.txt']);
  });

  it('writes, appends and creates parent directories on request', async () => {
    expect(await codeOf(bridge.writeFile('deep/dir/f.txt', Buffer.from('x')))).toBe('NOT_FOUND');
    const written = await bridge.writeFile('deep/dir/f.txt', Buffer.from('one\n'), { mkdirs: true });
    expect(written).toEqual({ path: '/workspace/deep/dir/f.txt', bytes: 4 });
    await bridge.writeFile('deep/dir/f.txt', Buffer.from('two\n'), { append: true });
    expect(await fs.readFile(path.join(ws, 'deep/dir/f.txt'), 'utf8')).toBe('one\ntwo\n');
  });

  it('keeps the mode of a replaced file', async () => {
    await fs.writeFile(path.join(ws, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    await bridge.writeFile('run.sh', Buffer.from('#!/bin/sh\necho hi\n'));
    expect((await fs.stat(path.join(ws, 'run.sh'))).mode & 0o777).toBe(0o755);
  });

  it('lists a directory with lstat metadata, marking symlinks and sockets as neither file nor directory', async () => {
    await fs.writeFile(path.join(ws, 'f.txt'), 'abc');
    await fs.mkdir(path.join(ws, 'sub'));
    await fs.symlink(path.join(ws, 'sub'), path.join(ws, 'link-to-dir'));
    await fs.symlink('/etc/passwd', path.join(ws, 'link-out'));
    const net = await import('node:net');
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(path.join(ws, 'sock'), resolve));
    try {
      const entries = await bridge.readDirectory('.');
      const byName = Object.fromEntries(entries.map((e) => [e.name, e]));
      expect(byName['f.txt']).toMatchObject({ isFile: true, isDirectory: false, size: 3 });
      expect(byName['sub']).toMatchObject({ isFile: false, isDirectory: true });
      expect(byName['link-to-dir']).toMatchObject({ isFile: false, isDirectory: false });
      expect(byName['link-out']).toMatchObject({ isFile: false, isDirectory: false });
      expect(byName['sock']).toMatchObject({ isFile: false, isDirectory: false });
      expect(typeof byName['f.txt']?.mtimeMs).toBe('number');
      // Listing grants no read permission: the listed link still cannot be read.
      expect(await codeOf(bridge.readFile('link-out'))).toBe('PATH_OUTSIDE_MOUNT');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('stats a symlink inside the mount as a link to its canonical target', async () => {
    await fs.writeFile(path.join(ws, 'a.txt'), 'abc');
    await fs.symlink(path.join(ws, 'a.txt'), path.join(ws, 'link'));
    expect(await bridge.stat('link')).toMatchObject({ path: '/workspace/a.txt', isFile: true, isSymbolicLink: true, size: 3 });
    expect(await bridge.stat('a.txt')).toMatchObject({ isSymbolicLink: false });
    expect(await codeOf(bridge.stat('nope'))).toBe('NOT_FOUND');
  });

  it('renames and removes inside the workspace', async () => {
    await fs.mkdir(path.join(ws, 'd'));
    await fs.writeFile(path.join(ws, 'd', 'a.txt'), 'a');
    await bridge.rename('d/a.txt', 'b.txt');
    expect(await fs.readFile(path.join(ws, 'b.txt'), 'utf8')).toBe('a');
    expect(await codeOf(bridge.remove('d'))).toBe('NOT_A_FILE');
    await bridge.remove('d', { recursive: true });
    expect(await fs.readdir(ws)).toEqual(['b.txt']);
    expect(await codeOf(bridge.rename('b.txt', '/etc/b.txt'))).toBe('PATH_NOT_ADMITTED');
  });
});
