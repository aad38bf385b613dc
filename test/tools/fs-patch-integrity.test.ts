import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { applyPatchTool } from '../../plugins/fs/src/tools/apply-patch.js';
import { editTool } from '../../plugins/fs/src/tools/edit.js';
import { failingWritesTo, intercept, localFixture, memoryFixture, type FsFixture } from './fs-fixtures.js';
import { closeRemoteFixtures, REMOTE_FIXTURES } from './fs-remote-fixtures.js';
import { callTool, errorCodeOf, textOf } from './helpers.js';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch'].join('\n');

const fixtures: [string, () => Promise<FsFixture>][] = [
  ['memory workspace', async () => memoryFixture()],
  ['local backend', localFixture],
  ...REMOTE_FIXTURES,
];
afterAll(closeRemoteFixtures);

describe.each(fixtures)('apply_patch and edit integrity (%s)', (_name, make) => {
  let f: FsFixture;
  afterEach(async () => {
    await f.cleanup();
  });

  describe('concurrent writers (issue 21 item 2)', () => {
    /** The workspace, with `change` run right before the first write to `file`: a writer landing between read and rename. */
    const racing = (file: string, change: () => Promise<void>) => {
      let raced = false;
      return intercept(f.workspace, {
        write: async (p, c, o, s) => {
          if (!raced && p.endsWith(file)) {
            raced = true;
            await change();
          }
          return f.workspace.write(p, c, o, s);
        },
      });
    };

    it('edit refuses with CONFLICT when the file changed after its read, and the concurrent bytes survive', async () => {
      f = await make();
      await f.put('log.txt', 'one\ntwo\n');
      const workspace = racing('log.txt', () => f.put('log.txt', 'one\ntwo\nappended by someone else\n'));
      const result = await callTool(editTool, { path: 'log.txt', oldText: 'one', newText: 'ONE' }, workspace);
      expect(errorCodeOf(result)).toBe('CONFLICT');
      expect(textOf(result)).toMatch(/Hint: .*Read it again/);
      expect(await f.bytes('log.txt')).toEqual(Buffer.from('one\ntwo\nappended by someone else\n'));
    });

    it('apply_patch undoes its first file when the second changed under it, and keeps the other writer\'s bytes', async () => {
      f = await make();
      await f.put('a.txt', 'a\n');
      await f.put('b.txt', 'b\n');
      const workspace = racing('b.txt', () => f.put('b.txt', 'b\nconcurrent\n'));
      const result = await callTool(applyPatchTool, { input: patch('*** Update File: a.txt', '-a', '+A', '*** Update File: b.txt', '-b', '+B') }, workspace);
      expect(errorCodeOf(result)).toBe('CONFLICT');
      expect(result.details).toMatchObject({ rolledBack: true, notRestored: [] });
      expect(await f.bytes('a.txt')).toEqual(Buffer.from('a\n'));
      expect(await f.bytes('b.txt')).toEqual(Buffer.from('b\nconcurrent\n'));
    });

    it('apply_patch adds a file only if nothing appeared at its path in the meantime', async () => {
      f = await make();
      const workspace = racing('new.txt', () => f.put('new.txt', 'theirs\n'));
      const result = await callTool(applyPatchTool, { input: patch('*** Add File: new.txt', '+ours') }, workspace);
      expect(errorCodeOf(result)).toBe('CONFLICT');
      expect(await f.bytes('new.txt')).toEqual(Buffer.from('theirs\n'));
    });
  });

  describe('modes (item 3, tool side)', () => {
    it('a move keeps the mode of the moved file', async () => {
      f = await make();
      await f.put('run.sh', '#!/bin/sh\necho one\n', 0o755);
      const result = await callTool(applyPatchTool, { input: patch('*** Update File: run.sh', '*** Move to: bin/run.sh', '@@', '-echo one', '+echo two') }, f.workspace);
      expect(result.isError).toBeUndefined();
      expect(await f.bytes('bin/run.sh')).toEqual(Buffer.from('#!/bin/sh\necho two\n'));
      expect(await f.mode('bin/run.sh')).toBe(0o755);
      expect(await f.list()).toEqual(['bin/', 'bin/run.sh']);
    });

    it('a moved set-uid file keeps its permission bits but not the set-id bits, since its content is new', async () => {
      f = await make();
      await f.put('suid.sh', '#!/bin/sh\nid\n', 0o4755);
      const result = await callTool(applyPatchTool, { input: patch('*** Update File: suid.sh', '*** Move to: moved.sh', '-id', '+id -u') }, f.workspace);
      expect(result.isError).toBeUndefined();
      expect(await f.mode('moved.sh')).toBe(0o755);
    });

    it('a rolled-back delete brings the file back with its bytes and mode', async () => {
      f = await make();
      await f.put('tool.sh', '#!/bin/sh\n', 0o750);
      await f.put('z.txt', 'z\n');
      const result = await callTool(applyPatchTool, { input: patch('*** Delete File: tool.sh', '*** Update File: z.txt', '-z', '+Z') }, failingWritesTo(f.workspace, 'z.txt'));
      expect(errorCodeOf(result)).toBe('IO_ERROR');
      expect(textOf(result)).toMatch(/undone; no file changed/);
      expect(await f.bytes('tool.sh')).toEqual(Buffer.from('#!/bin/sh\n'));
      expect(await f.mode('tool.sh')).toBe(0o750);
      expect(await f.list()).toEqual(['tool.sh', 'z.txt']);
    });
  });

  describe('rollback leaves nothing behind (item 4)', () => {
    it('a failed move leaves neither the new file nor the directories it created', async () => {
      f = await make();
      await f.put('m.txt', 'one\ntwo\n');
      await f.put('z.txt', 'z\n');
      const result = await callTool(
        applyPatchTool,
        { input: patch('*** Add File: docs/deep/new.md', '+# new', '*** Update File: m.txt', '*** Move to: moved/here/m.txt', '@@', '-two', '+deux', '*** Update File: z.txt', '-z', '+Z') },
        failingWritesTo(f.workspace, 'z.txt'),
      );
      expect(result.details).toMatchObject({ rolledBack: true });
      expect(await f.list()).toEqual(['m.txt', 'z.txt']);
      expect(await f.bytes('m.txt')).toEqual(Buffer.from('one\ntwo\n'));
    });

    it('a single Add whose write fails after creating its directories leaves no directory behind', async () => {
      f = await make();
      const workspace = intercept(f.workspace, {
        write: async (p, c, o, s) => {
          await f.workspace.mkdir(p.replace(/\/[^/]+$/, ''), { recursive: true }, s); // what the backend's mkdirs did before the disk filled
          return failingWritesTo(f.workspace, 'x.txt').write(p, c, o, s);
        },
      });
      const result = await callTool(applyPatchTool, { input: patch('*** Add File: deep/er/x.txt', '+x') }, workspace);
      expect(result.details).toMatchObject({ error: { code: 'IO_ERROR' }, rolledBack: true });
      expect(await f.list()).toEqual([]);
    });

    it('a deleted symlink comes back as the same symlink, not as a copy of its target', async () => {
      f = await make();
      await f.put('target.txt', 'target\n');
      await f.symlink('target.txt', 'link.txt');
      await f.put('z.txt', 'z\n');
      const result = await callTool(applyPatchTool, { input: patch('*** Delete File: link.txt', '*** Update File: z.txt', '-z', '+Z') }, failingWritesTo(f.workspace, 'z.txt'));
      expect(result.details).toMatchObject({ rolledBack: true });
      expect(await f.list()).toEqual(['link.txt@', 'target.txt', 'z.txt']);
      expect(await f.bytes('link.txt')).toEqual(Buffer.from('target\n'));
    });

    it('a patch that deletes a symlink deletes the link and keeps its target', async () => {
      f = await make();
      await f.put('target.txt', 'target\n');
      await f.symlink('target.txt', 'link.txt');
      expect((await callTool(applyPatchTool, { input: patch('*** Delete File: link.txt') }, f.workspace)).isError).toBeUndefined();
      expect(await f.list()).toEqual(['target.txt']);
    });

    it('refuses to move a symlink (PATCH_CONFLICT) and changes neither the link nor its target', async () => {
      f = await make();
      await f.put('target.txt', 'target\n');
      await f.symlink('target.txt', 'link.txt');
      const result = await callTool(applyPatchTool, { input: patch('*** Update File: link.txt', '*** Move to: moved.txt', '-target', '+moved') }, f.workspace);
      expect(errorCodeOf(result)).toBe('PATCH_CONFLICT');
      expect(textOf(result)).toMatch(/Cannot move link\.txt: it is a symbolic link; apply_patch moves regular files/);
      expect(await f.list()).toEqual(['link.txt@', 'target.txt']);
      expect(await f.bytes('target.txt')).toEqual(Buffer.from('target\n'));
    });

    it('refuses to create a file through a dangling symlink, which an undo would otherwise remove', async () => {
      f = await make();
      await f.symlink('nowhere', 'ghost');
      const result = await callTool(applyPatchTool, { input: patch('*** Add File: a.txt', '+a', '*** Add File: ghost/deep/x.txt', '+x') }, f.workspace);
      // The Docker and SSH backends refuse any path through a dangling link themselves, before the tool's own check.
      if (errorCodeOf(result) === 'PATH_NOT_ADMITTED') expect(textOf(result)).toMatch(/dangling symlink/);
      else expect(textOf(result)).toMatch(/^Error \[PATCH_CONFLICT\]: .*ghost is a symbolic link to nothing/);
      expect(await f.list()).toEqual(['ghost@']);
    });

    it('reports exactly the file it could not restore, because someone changed it after the patch wrote it', async () => {
      f = await make();
      await f.put('a.txt', 'a\n');
      await f.put('z.txt', 'z\n');
      const workspace = intercept(f.workspace, {
        write: async (p, c, o, s) => {
          if (!p.endsWith('z.txt')) return f.workspace.write(p, c, o, s);
          await f.put('a.txt', 'edited by the user meanwhile\n');
          return failingWritesTo(f.workspace, 'z.txt').write(p, c, o, s);
        },
      });
      const result = await callTool(applyPatchTool, { input: patch('*** Update File: a.txt', '-a', '+A', '*** Update File: z.txt', '-z', '+Z') }, workspace);
      expect(result.details).toMatchObject({ rolledBack: false, notRestored: [{ path: expect.stringMatching(/a\.txt$/), reason: expect.stringMatching(/changed by another process/) }] });
      expect(textOf(result)).toMatch(/Could not restore: \S*a\.txt \(changed by another process/);
      expect(await f.bytes('a.txt')).toEqual(Buffer.from('edited by the user meanwhile\n'));
      expect(await f.bytes('z.txt')).toEqual(Buffer.from('z\n'));
    });
  });

  describe('one file, two names (item 5)', () => {
    it.each([
      ['a.txt and ./a.txt', ['*** Update File: a.txt', '-a', '+A', '*** Update File: ./a.txt', '-a', '+B']],
      ['a symlink and its target', ['*** Update File: link.txt', '-a', '+A', '*** Update File: a.txt', '-a', '+B']],
      ['a move onto another spelling of an updated file', ['*** Update File: b.txt', '*** Move to: sub/../c.txt', '-b', '+B', '*** Add File: ./c.txt', '+c']],
    ])('refuses a patch that names one file twice (%s) and changes nothing', async (_case, body) => {
      f = await make();
      await f.put('a.txt', 'a\n');
      await f.put('b.txt', 'b\n');
      await f.put('sub/keep', '');
      await f.symlink('a.txt', 'link.txt');
      const before = await f.list();
      const result = await callTool(applyPatchTool, { input: patch(...body) }, f.workspace);
      expect(errorCodeOf(result)).toBe('PATCH_CONFLICT');
      expect(textOf(result)).toMatch(/are the same file/);
      expect(await f.bytes('a.txt')).toEqual(Buffer.from('a\n'));
      expect(await f.list()).toEqual(before);
    });
  });
});

// Inode and owner are read from the host, so this part runs on the local backend (as root here,
// so a file can belong to another user): the undo renames the parked original back, it does not copy it.
describe('a rolled-back delete is the same file (local backend)', () => {
  let f: Awaited<ReturnType<typeof localFixture>>;
  afterEach(async () => {
    await f.cleanup();
  });

  it('comes back as the same inode with its owner, mode and bytes', async () => {
    f = await localFixture();
    await f.put('tool.sh', '#!/bin/sh\n', 0o750);
    await f.put('z.txt', 'z\n');
    const file = path.join(f.dir, 'tool.sh');
    await fs.chown(file, 4321, 4321);
    const before = await fs.stat(file);
    const result = await callTool(applyPatchTool, { input: patch('*** Delete File: tool.sh', '*** Update File: z.txt', '-z', '+Z') }, failingWritesTo(f.workspace, 'z.txt'));
    expect(result.details).toMatchObject({ rolledBack: true });
    const after = await fs.stat(file);
    expect({ ino: after.ino, dev: after.dev, uid: after.uid, gid: after.gid, mode: after.mode & 0o7777 }).toEqual({ ino: before.ino, dev: before.dev, uid: 4321, gid: 4321, mode: 0o750 });
    expect(await f.bytes('tool.sh')).toEqual(Buffer.from('#!/bin/sh\n'));
    expect(await f.list()).toEqual(['tool.sh', 'z.txt']);
  });
});
