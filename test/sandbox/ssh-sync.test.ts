import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SyncProgress } from '../../plugins/sandbox-ssh/src/sync/sync-target.js';
import { HAS_SSH, tempDir } from './services.js';
import { codeOf, openSsh, removeRoot, smallWorkspace, sshRoot, treeOf } from './ssh-fixtures.js';

const ROOT = sshRoot('sync');

describe.skipIf(!HAS_SSH)('ssh sync: host to remote before each call, remote to host at sync back (real sshd)', () => {
  afterAll(() => removeRoot(ROOT));

  it('shows a host edit, a new host file and a host removal to the very next call', async () => {
    const host = smallWorkspace();
    const ws = await openSsh(ROOT, host);
    try {
      expect((await ws.read('hello.txt')).content).toBe('hello world\n');
      writeFileSync(join(host, 'hello.txt'), 'edited on the host\n');
      writeFileSync(join(host, 'new.txt'), 'new on the host\n');
      rmSync(join(host, 'src', 'a.ts'));
      expect((await ws.read('hello.txt')).content).toBe('edited on the host\n');
      expect((await ws.exec('cat new.txt')).stdout).toBe('new on the host\n');
      expect(await codeOf(ws.read('src/a.ts'))).toBe('NOT_FOUND');
    } finally {
      await ws.close();
    }
  });

  it('sends nothing when nothing changed, and only the changed file after one edit', async () => {
    const host = smallWorkspace();
    const seen: SyncProgress[] = [];
    const ws = await openSsh(ROOT, host, { onProgress: (p) => seen.push(p) });
    try {
      expect(seen.at(-1)).toMatchObject({ phase: 'push', entriesTotal: 8, entriesDone: 8 });
      seen.length = 0;
      await ws.stat('hello.txt');
      await ws.exec('true');
      expect(seen).toEqual([]);
      writeFileSync(join(host, 'src', 'lib', 'b.ts'), 'export const b = 3;\n');
      expect((await ws.exec('cat src/lib/b.ts')).stdout).toBe('export const b = 3;\n');
      expect(seen.at(-1)).toMatchObject({ phase: 'push', entriesTotal: 1, entriesDone: 1 });
    } finally {
      await ws.close();
    }
  });

  it('shares one copy between the sessions of a workspace, and a later session syncs only what changed', async () => {
    const host = smallWorkspace();
    const dataDir = tempDir('ssh-data');
    const first = await openSsh(ROOT, host, { dataDir });
    const seen: SyncProgress[] = [];
    const second = await openSsh(ROOT, host, { dataDir, onProgress: (p) => seen.push(p) });
    const readOnly = await openSsh(ROOT, host, { dataDir, access: 'ro' });
    try {
      expect(second.copies[0]!.copy).toBe(first.copies[0]!.copy);
      expect(seen).toEqual([]); // the second session copied nothing
      await first.write('shared.txt', 'from the first session');
      expect((await second.read('shared.txt')).content).toBe('from the first session');
      // A read-only session never shares a writable copy: it does not see the unsynced write.
      expect(readOnly.copies[0]!.copy.treeDir).not.toBe(first.copies[0]!.copy.treeDir);
      expect(await codeOf(readOnly.read('shared.txt'))).toBe('NOT_FOUND');
    } finally {
      await Promise.all([first.close(), second.close(), readOnly.close()]);
    }
    writeFileSync(join(host, 'later.txt'), 'changed while no session was open');
    const later: SyncProgress[] = [];
    const third = await openSsh(ROOT, host, { dataDir, onProgress: (p) => later.push(p) });
    try {
      expect(third.copies[0]!.copy.reused).toBe(true);
      expect(later.at(-1)).toMatchObject({ entriesTotal: 1 });
      expect((await third.read('shared.txt')).content).toBe('from the first session');
      expect((await third.read('later.txt')).content).toBe('changed while no session was open');
    } finally {
      await third.close();
    }
  });

  it('leaves node_modules out by default, and .git and what .gitignore ignores when asked, both ways', async () => {
    const host = smallWorkspace();
    execFileSync('git', ['init', '-q', host]);
    mkdirSync(join(host, 'node_modules', 'pkg'), { recursive: true });
    writeFileSync(join(host, 'node_modules', 'pkg', 'index.js'), 'module.exports = 1;\n');
    mkdirSync(join(host, 'build'));
    writeFileSync(join(host, 'build', 'out.js'), 'built\n');
    writeFileSync(join(host, '.gitignore'), 'build/\n*.log\n');
    const plain = await openSsh(ROOT, host, { settings: { syncBack: 'on-close' } });
    const lean = await openSsh(ROOT, host, { settings: { syncBack: 'on-close', sync: { git: false, gitignore: true } } });
    try {
      const tree = treeOf(plain.copies[0]!.copy.treeDir);
      expect(tree).toHaveProperty(['.git/HEAD']);
      expect(tree).toHaveProperty(['build/out.js']);
      expect(Object.keys(tree).filter((p) => p.startsWith('node_modules'))).toEqual([]);
      const leanTree = treeOf(lean.copies[0]!.copy.treeDir);
      expect(Object.keys(leanTree).filter((p) => /^(\.git|build|node_modules)(\/|$)/.test(p))).toEqual([]);
      expect(leanTree).toHaveProperty(['hello.txt']);
      await plain.exec('mkdir -p node_modules/remote-only && echo x > node_modules/remote-only/i.js && echo y > debug.log');
      await lean.exec('echo y > debug.log && mkdir -p build && echo z > build/remote.js');
    } finally {
      await Promise.all([plain.close(), lean.close()]);
    }
    expect(existsSync(join(host, 'node_modules', 'remote-only'))).toBe(false);
    expect(readFileSync(join(host, 'debug.log'), 'utf8')).toBe('y\n'); // not ignored without sync.gitignore
    expect(existsSync(join(host, 'build', 'remote.js'))).toBe(false); // ignored by .gitignore with it
  });

  it('never uploads a host file hard-linked to a file outside the workspace: read and write are refused with HARD_LINKED, unless allowHardLinks', async () => {
    const host = smallWorkspace();
    const outside = join(tempDir('ssh-outside'), 'secret.txt');
    writeFileSync(outside, 'outside the workspace\n');
    linkSync(outside, join(host, 'twin.txt'));
    const ws = await openSsh(ROOT, host);
    try {
      expect(await codeOf(ws.read('twin.txt'))).toBe('HARD_LINKED');
      expect(await codeOf(ws.write('twin.txt', 'through the link'))).toBe('HARD_LINKED');
      expect((await ws.exec('cat twin.txt 2>/dev/null; echo rc=$?')).stdout).toBe('rc=1\n');
      expect(treeOf(ws.copies[0]!.copy.treeDir)).not.toHaveProperty(['twin.txt']);
      expect((await ws.read('hello.txt')).content).toBe('hello world\n'); // the rest is synced
    } finally {
      await ws.close();
    }
    expect(readFileSync(outside, 'utf8')).toBe('outside the workspace\n');
    // The operator's opt-out: the twin is copied (and read) like any file.
    const allowed = await openSsh(ROOT, host, { allowHardLinks: true });
    try {
      expect((await allowed.exec('cat twin.txt')).stdout).toBe('outside the workspace\n');
    } finally {
      await allowed.close();
    }
  });

  it('reports a file both sides changed as a conflict once, and overwrites neither side', async () => {
    const host = smallWorkspace();
    const ws = await openSsh(ROOT, host, { settings: { syncBack: 'on-close' } });
    let report;
    try {
      await ws.write('hello.txt', 'written in the sandbox');
      writeFileSync(join(host, 'hello.txt'), 'written on the host');
      await expect(ws.stat('src')).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('hello.txt') });
      expect((await ws.read('hello.txt')).content).toBe('written in the sandbox');
      expect(readFileSync(join(host, 'hello.txt'), 'utf8')).toBe('written on the host');
      writeFileSync(join(host, 'src', 'a.ts'), 'an unrelated host edit still arrives');
      expect((await ws.read('src/a.ts')).content).toBe('an unrelated host edit still arrives');
    } finally {
      report = await ws.close();
    }
    expect(report?.conflicts).toEqual(['hello.txt']);
    expect(readFileSync(join(host, 'hello.txt'), 'utf8')).toBe('written on the host');
  });

  it('ends a conflict when both sides hold the same content again', async () => {
    const host = smallWorkspace();
    const ws = await openSsh(ROOT, host);
    try {
      await ws.write('hello.txt', 'sandbox version');
      writeFileSync(join(host, 'hello.txt'), 'host version');
      expect(await codeOf(ws.exec('true'))).toBe('CONFLICT');
      writeFileSync(join(host, 'hello.txt'), 'sandbox version');
      expect((await ws.exec('cat hello.txt')).stdout).toBe('sandbox version');
      expect(ws.copies[0]!.copy.target.state.conflicts.size).toBe(0);
    } finally {
      await ws.close();
    }
  });

  it('brings remote changes back through the host guard: protected paths, links out and paths through links are refused', async () => {
    const host = smallWorkspace();
    execFileSync('git', ['init', '-q', host]);
    const dataDir = tempDir('ssh-data');
    const ws = await openSsh(ROOT, host, { dataDir, settings: { syncBack: 'on-close' }, protectedPaths: ['.git', '.pincer'] });
    let report;
    try {
      await ws.write('made/remotely.txt', 'made remotely', { mkdirs: true });
      await ws.write('src/a.ts', 'changed remotely');
      await ws.exec([
        'rm src/lib/b.ts',
        'printf "#!/bin/sh\\necho run\\n" > tool.sh && chmod 755 tool.sh',
        'printf "#!/bin/sh\\necho pwned\\n" > .git/hooks/pre-commit && chmod 755 .git/hooks/pre-commit',
        'mkdir -p .pincer && echo x > .pincer/state',
        'ln -s /etc out-link && ln -s hello.txt in-link && ln -s ../../etc/passwd up-link',
        'ln -s .git g && echo "[core]" > g/sneaky',
        'echo tampered > skills/demo/SKILL.md',
      ].join(' && '));
    } finally {
      report = await ws.close();
    }
    expect(readFileSync(join(host, 'made', 'remotely.txt'), 'utf8')).toBe('made remotely');
    expect(readFileSync(join(host, 'src', 'a.ts'), 'utf8')).toBe('changed remotely');
    expect(existsSync(join(host, 'src', 'lib', 'b.ts'))).toBe(false);
    expect(statSync(join(host, 'tool.sh')).mode & 0o111).not.toBe(0);
    expect(readlinkSync(join(host, 'in-link'))).toBe('hello.txt');
    for (const refused of ['.git/hooks/pre-commit', '.git/sneaky', '.pincer', 'out-link', 'up-link', 'g']) {
      expect(report?.refused.map((r) => r.path)).toContain(refused);
    }
    expect(existsSync(join(host, '.git', 'hooks', 'pre-commit'))).toBe(false);
    expect(existsSync(join(host, '.git', 'sneaky'))).toBe(false);
    expect(existsSync(join(host, '.pincer'))).toBe(false);
    for (const link of ['out-link', 'up-link', 'g']) expect(() => lstatSync(join(host, link))).toThrow();
    expect(readFileSync(join(host, 'skills', 'demo', 'SKILL.md'), 'utf8')).toContain('Do things.');
    // The next session finds the agent's instructions as the host has them, not as a command left them.
    const next = await openSsh(ROOT, host, { dataDir });
    try {
      expect((await next.read('skills/demo/SKILL.md')).content).toContain('Do things.');
    } finally {
      await next.close();
    }
  });
});
