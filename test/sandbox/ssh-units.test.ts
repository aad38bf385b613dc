import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readFileSync, readlinkSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ChannelSlots } from '../../plugins/sandbox-ssh/src/channel-slots.js';
import { isHostKeyTrusted, revokedKeysFromKnownHosts, trustedKeysFromKnownHosts } from '../../plugins/sandbox-ssh/src/host-key.js';
import { SshSyncSettingsSchema } from '../../plugins/sandbox-ssh/src/settings.js';
import { excludeFilter } from '../../plugins/sandbox-ssh/src/sync/excludes.js';
import { HostWriter } from '../../plugins/sandbox-ssh/src/sync/host-writer.js';
import { scanHost } from '../../plugins/sandbox-ssh/src/sync/host-scan.js';
import { parseRemoteRecords } from '../../plugins/sandbox-ssh/src/sync/remote-records.js';
import { packEntries, type SentFile } from '../../plugins/sandbox-ssh/src/sync/tar-pack.js';
import { TarReader } from '../../plugins/sandbox-ssh/src/sync/tar-read.js';
import { tempDir } from './services.js';

const sync = (extra: Record<string, unknown> = {}) => SshSyncSettingsSchema.parse(extra);

async function drain(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

describe('ssh sync excludes', () => {
  it('matches a bare name at any depth, an anchored path only at the root, and directories only with a trailing slash', () => {
    const f = excludeFilter(sync({ exclude: ['node_modules', 'docs/private', '*.log', 'out/', 'a/**/z'] }));
    expect(f.excludes('node_modules', true)).toBe(true);
    expect(f.excludes('pkg/node_modules/x/index.js', false)).toBe(true);
    expect(f.excludes('docs/private/secret.md', false)).toBe(true);
    expect(f.excludes('other/docs/private', true)).toBe(false);
    expect(f.excludes('deep/debug.log', false)).toBe(true);
    expect(f.excludes('out', true)).toBe(true);
    expect(f.excludes('out', false)).toBe(false);
    expect(f.excludes('a/b/c/z', false)).toBe(true);
    expect(f.excludes('a/z', false)).toBe(true);
    expect(f.excludes('src/index.ts', false)).toBe(false);
    expect(f.prunableNames).toEqual(['node_modules']);
  });

  it('adds .git unless sync.git, and what git ignores with sync.gitignore', () => {
    expect(excludeFilter(sync()).excludes('.git/HEAD', false)).toBe(false);
    expect(excludeFilter(sync({ git: false })).excludes('.git/HEAD', false)).toBe(true);
    const repo = tempDir('ssh-git');
    execFileSync('git', ['init', '-q', repo]);
    writeFileSync(join(repo, '.gitignore'), 'dist/\nsecret.env\n');
    mkdirSync(join(repo, 'dist'));
    writeFileSync(join(repo, 'dist', 'bundle.js'), '');
    writeFileSync(join(repo, 'secret.env'), '');
    const f = excludeFilter(sync({ gitignore: true }), repo);
    expect(f.excludes('dist/bundle.js', false)).toBe(true);
    expect(f.excludes('secret.env', false)).toBe(true);
    expect(f.excludes('.gitignore', false)).toBe(false);
    expect(() => excludeFilter(sync({ gitignore: true }), tempDir('ssh-nogit'))).toThrow(/sync\.gitignore.*git/);
  });
});

describe('ssh sync archives', () => {
  it('packs files, links and directories (long names included) as tar that GNU tar extracts byte for byte', async () => {
    const src = tempDir('ssh-pack');
    const long = `${'deep/'.repeat(30)}file-with-a-long-name.txt`;
    mkdirSync(join(src, long, '..'), { recursive: true });
    writeFileSync(join(src, long), 'long\n');
    writeFileSync(join(src, 'bin.dat'), Buffer.from([0, 1, 2, 255]));
    symlinkSync('bin.dat', join(src, 'link'));
    const entries = [...scanHost(src, excludeFilter(sync()))];
    const sent = new Map<string, SentFile>();
    const archive = await drain(packEntries(src, entries, sent));
    const out = tempDir('ssh-unpack');
    execFileSync('tar', ['-xf', '-', '-C', out], { input: archive });
    expect(readFileSync(join(out, long), 'utf8')).toBe('long\n');
    expect([...readFileSync(join(out, 'bin.dat'))]).toEqual([0, 1, 2, 255]);
    expect(readlinkSync(join(out, 'link'))).toBe('bin.dat');
    expect(sent.get('bin.dat')).toEqual({ hash: expect.stringMatching(/^[0-9a-f]{64}$/), stable: true });
  });

  it('holds back a hard-linked host file at the scan, and never packs what a swap after the scan put at a scanned path', async () => {
    const src = tempDir('ssh-swap');
    const outside = tempDir('ssh-outside');
    const secret = 'outside secret, 26 bytes!\n';
    writeFileSync(join(outside, 'secret'), secret);
    linkSync(join(outside, 'secret'), join(src, 'twin'));
    const padding = 'x'.repeat(secret.length);
    for (const name of ['by-link', 'by-rename', 'by-hard-link']) writeFileSync(join(src, name), padding);
    const hardLinked = new Set<string>();
    const entries = [...scanHost(src, excludeFilter(sync()), { hardLinked })];
    expect(entries.map(([p]) => p).sort()).toEqual(['by-hard-link', 'by-link', 'by-rename']);
    expect([...hardLinked]).toEqual(['twin']);
    expect(scanHost(src, excludeFilter(sync()), { allowHardLinks: true }).has('twin')).toBe(true);
    // Between the scan and the read, each scanned file is swapped for the outside file's content.
    rmSync(join(src, 'by-link'));
    symlinkSync(join(outside, 'secret'), join(src, 'by-link'));
    writeFileSync(join(outside, 'copy'), secret);
    renameSync(join(outside, 'copy'), join(src, 'by-rename'));
    rmSync(join(src, 'by-hard-link'));
    linkSync(join(outside, 'secret'), join(src, 'by-hard-link'));
    const sent = new Map<string, SentFile>();
    const archive = await drain(packEntries(src, entries, sent));
    expect(archive.includes(Buffer.from('outside secret'))).toBe(false);
    for (const [p] of entries) expect([p, sent.get(p)?.stable]).toEqual([p, false]); // sent again, from a fresh scan
  });

  it('reads only the wanted files from a GNU tar archive and refuses a cut one', () => {
    const src = tempDir('ssh-read');
    writeFileSync(join(src, 'wanted.txt'), 'yes');
    writeFileSync(join(src, 'planted.txt'), 'no');
    const archive = execFileSync('tar', ['-cf', '-', '--format=posix', '-C', src, 'wanted.txt', 'planted.txt']);
    const reader = new TarReader(new Set(['wanted.txt']), 1024);
    reader.push(archive);
    reader.finish();
    expect([...reader.files.keys()]).toEqual(['wanted.txt']);
    expect(reader.files.get('wanted.txt')!.data.toString()).toBe('yes');
    const cut = new TarReader(new Set(['wanted.txt']), 1024);
    cut.push(archive.subarray(0, 700));
    expect(() => cut.finish()).toThrow(/malformed archive/);
    const oversized = new TarReader(new Set(['wanted.txt']), 2);
    oversized.push(archive);
    expect(oversized.files.size).toBe(0);
  });

  it('parses remote records and refuses a malformed listing', () => {
    const records = parseRemoteRecords(Buffer.from('f/644/3/11/1.5/1.5\0./a b\0\0l/777/1/12/2.0/2.0\0./ln\0a b\0'));
    expect(records).toMatchObject([{ path: 'a b', kind: 'f', size: 3 }, { path: 'ln', kind: 'l', link: 'a b', stamp: 'l:a b' }]);
    expect(() => parseRemoteRecords(Buffer.from('garbage\0./x\0'))).toThrow(/malformed/);
  });
});

describe('ssh sync back onto the host', () => {
  it('refuses protected paths, malformed paths, links out or into protected paths, and paths through links', async () => {
    const host = tempDir('ssh-writer');
    mkdirSync(join(host, '.git'));
    symlinkSync('.git', join(host, 'g'));
    const writer = new HostWriter(host, ['.git']);
    await writer.writeFile('ok.txt', Buffer.from('ok'), 0o644, true);
    expect(readFileSync(join(host, 'ok.txt'), 'utf8')).toBe('ok');
    await expect(writer.writeFile('.git/config', Buffer.from('x'), 0o644, true)).rejects.toThrow('protected path');
    await expect(writer.writeFile('.GIT/config', Buffer.from('x'), 0o644, true)).rejects.toThrow('protected path');
    await expect(writer.writeFile('g/config', Buffer.from('x'), 0o644, true)).rejects.toThrow('symbolic link');
    await expect(writer.writeFile('a/../../escape', Buffer.from('x'), 0o644, true)).rejects.toThrow('plain relative path');
    await expect(writer.symlink('out', '/etc/passwd')).rejects.toThrow('outside the workspace');
    await expect(writer.symlink('up', '../x')).rejects.toThrow('outside the workspace');
    await expect(writer.symlink('into', './.git/hooks')).rejects.toThrow('protected path');
    await writer.symlink('in', 'ok.txt');
    expect(readlinkSync(join(host, 'in'))).toBe('ok.txt');
  });
});

describe('ssh host keys', () => {
  const key = Buffer.from('key-one');
  const other = Buffer.from('key-two');
  const line = (k: Buffer) => `ssh-ed25519 ${k.toString('base64')}`;
  const texts = [`[h]:2222 ${line(key)}\n@revoked * ${line(other)}\n@cert-authority *.example ${line(other)}\n`];

  it('trusts listed keys, never a marked line, and refuses a revoked key even when pinned', () => {
    expect(trustedKeysFromKnownHosts(texts, 'h', 2222)).toEqual([key]);
    const revoked = revokedKeysFromKnownHosts(texts);
    expect(revoked).toEqual([other]);
    expect(isHostKeyTrusted(key, undefined, [key], revoked)).toBe(true);
    expect(isHostKeyTrusted(other, undefined, [other], revoked)).toBe(false);
    expect(isHostKeyTrusted(other, line(other), [], revoked)).toBe(false);
  });
});

describe('ssh channel slots', () => {
  it('learns a limit between the count at a refusal and the most channels seen open', async () => {
    const slots = new ChannelSlots(undefined);
    const held = await Promise.all(Array.from({ length: 4 }, () => slots.acquire()));
    held.slice(0, 2).forEach((s) => s.opened());
    expect(slots.learnFromRefusal()).toBe(true);
    expect(slots.limit).toBe(3);
    held[3]!.release();
    held[2]!.opened();
    expect(slots.limit).toBe(3);
    let waited = false;
    const next = slots.acquire().then((s) => { waited = true; return s; });
    await Promise.resolve();
    expect(waited).toBe(false);
    held[0]!.release();
    (await next).release();
    const alone = new ChannelSlots(undefined);
    await alone.acquire();
    expect(alone.learnFromRefusal()).toBe(false);
  });
});
