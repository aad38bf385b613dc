/**
 * ATTACK: the `read` fast path of the local backend (sdk/fs-bridge/host-bridge.ts readFile →
 * open-verified.ts openVerifiedFd → bounded-read.ts readBoundedFd). Small files (the first
 * SYNC_READ_MAX_BYTES = 256 KiB) are opened, verified through /proc/self/fd, fstat'ed and read
 * synchronously on the backend's event loop.
 *
 * The agent controls the tool arguments (the path) and, with `exec` or a second session, the
 * workspace's contents while a read runs. docs/tools.md ("Race protection", "Reads and
 * listings") and docs/sandbox.md ("The path guard", "Hard links") say what must hold:
 * nothing outside a mount is ever returned, a FIFO does not hang the read, a device is not a
 * file, a hard-linked file is refused (HARD_LINKED), a file growing past the cap fails with
 * FILE_TOO_LARGE, protected paths may be read but never changed.
 *
 * Each test asserts the fence holds.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, linkSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PincerConfig } from '../../kernel/index.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { SYNC_READ_MAX_BYTES, readBoundedFd } from '../../sdk/fs-bridge/bounded-read.js';
import { openVerifiedFd } from '../../sdk/fs-bridge/open-verified.js';
import { HostFsBridge } from '../../sdk/fs-bridge/index.js';
import { LocalWorkspace } from '../../plugins/sandbox-local/src/local-workspace.js';
import { tempDir } from '../helpers/temp-dir.js';
import { text, withKernel } from './helpers.js';

const SECRET = 'SECRET-OUTSIDE-THE-WORKSPACE';

/**
 * One shot of attacker timing, without a race: `fstatHook.once` runs right before the next
 * fstatSync of any module (host-bridge.ts fstats the opened fd after verifying it). Everything
 * else goes to the real node:fs.
 */
const fstatHook = vi.hoisted(() => ({ once: undefined as (() => void) | undefined }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const fstatSync = ((...args: Parameters<typeof actual.fstatSync>) => {
    const hook = fstatHook.once;
    fstatHook.once = undefined;
    hook?.();
    return (actual.fstatSync as (...a: unknown[]) => unknown)(...args);
  }) as typeof actual.fstatSync;
  return { ...actual, fstatSync, default: { ...actual, fstatSync } };
});
const codeOf = (promise: Promise<unknown>) => promise.then(() => 'ok', (error: { code?: string }) => error.code ?? String(error));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** A workspace, an outside directory holding the secret, and a bridge over the workspace only. */
function layout(name: string, options: { maxReadBytes?: number; allowHardLinks?: boolean } = {}) {
  const root = realpathSync(tempDir(`pincer-rt-rfp-${name}-`));
  const ws = path.join(root, 'ws');
  const out = path.join(root, 'out');
  mkdirSync(ws);
  mkdirSync(out);
  writeFileSync(path.join(out, 'secret'), SECRET);
  mkdirSync(path.join(out, 'sub'));
  writeFileSync(path.join(out, 'sub', 'f'), SECRET);
  const bridge = new HostFsBridge({
    mappings: [{ hostRoot: ws, containerRoot: '/workspace', protectedPaths: ['.git', 'pincer.config.json'] }],
    maxReadBytes: options.maxReadBytes,
    allowHardLinks: options.allowHardLinks,
  });
  return { root, ws, out, bridge };
}

/** Starts a detached helper (its own process group, killed at the end of the file). */
function startDetached(command: string, args: string[], cwd: string): ChildProcess {
  const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return child;
}

describe('the read fast path: what the path names', () => {
  it('refuses symlinks (final or parent) to outside files, devices and /proc: PATH_OUTSIDE_MOUNT, nothing read', async () => {
    const { ws, out, bridge } = layout('links');
    symlinkSync(path.join(out, 'secret'), path.join(ws, 'final'));
    symlinkSync(out, path.join(ws, 'dir'));
    symlinkSync('/dev/zero', path.join(ws, 'zero'));
    symlinkSync('/dev/stdin', path.join(ws, 'stdin'));
    symlinkSync('/proc/self/environ', path.join(ws, 'environ'));
    symlinkSync('/proc/self/mem', path.join(ws, 'mem'));
    symlinkSync('/proc/self/root/etc/passwd', path.join(ws, 'passwd'));
    symlinkSync('/proc/self/fd/0', path.join(ws, 'fd0'));
    symlinkSync('../out/secret', path.join(ws, 'relative'));
    for (const p of ['final', 'dir/secret', 'dir/sub/f', 'zero', 'stdin', 'environ', 'mem', 'passwd', 'fd0', 'relative', '/workspace/dir/secret']) {
      expect(await codeOf(bridge.readFile(p)), p).toBe('PATH_OUTSIDE_MOUNT');
    }
  });

  it('refuses `..` that leaves the mount, also behind a symlink (lexical `..`, never the link\'s parent)', async () => {
    const { ws, out, bridge } = layout('dotdot');
    writeFileSync(path.join(ws, 'inside'), 'inside');
    // sub -> out/sub: the kernel would resolve sub/.. to out/, the guard applies `..` lexically first.
    symlinkSync(path.join(out, 'sub'), path.join(ws, 'sub'));
    for (const p of ['../out/secret', 'a/../../out/secret', '/workspace/../out/secret', '/workspace/./../out/secret', '..', '../', '..\\out\\secret/..']) {
      const code = await codeOf(bridge.readFile(p));
      // `..\\out\\secret/..` is the workspace root itself (a backslash is a name character): NOT_A_FILE.
      expect(['PATH_OUTSIDE_MOUNT', 'PATH_NOT_ADMITTED', 'NOT_FOUND', 'NOT_A_FILE'], `${p}: ${code}`).toContain(code);
    }
    // sub/../secret is lexically "secret" in the workspace: it does not exist there (never out/secret).
    expect(await codeOf(bridge.readFile('sub/../secret'))).toBe('NOT_FOUND');
    expect((await bridge.readFile('sub/../inside')).data.toString()).toBe('inside');
  });

  it('refuses NUL bytes, over-long names and paths before any I/O; a 255-byte name is fine', async () => {
    const { ws, bridge } = layout('names');
    const name255 = 'n'.repeat(255);
    writeFileSync(path.join(ws, name255), 'long name');
    expect((await bridge.readFile(name255)).data.toString()).toBe('long name');
    for (const p of ['a\0b', `${name255}\0`, '\0', 'n'.repeat(256), `d/${'é'.repeat(128)}`, `${'d/'.repeat(2048)}f`]) {
      expect(await codeOf(bridge.readFile(p)), JSON.stringify(p.slice(0, 20))).toBe('PATH_NOT_ADMITTED');
    }
  });

  it('refuses a FIFO (with and without a writer), a device node, a socket and a directory without hanging', async () => {
    const { ws, bridge } = layout('special');
    execFileSync('mkfifo', [path.join(ws, 'fifo'), path.join(ws, 'fifo-w')]);
    // A writer holds fifo-w open (a reader open then succeeds at once, and a blocking read would hang).
    const writer = startDetached('sh', ['-c', 'exec 3>fifo-w; sleep 30'], ws);
    const sock = net.createServer().listen(path.join(ws, 'sock'));
    await new Promise((resolve) => sock.once('listening', resolve));
    let mknod = true;
    try {
      execFileSync('mknod', [path.join(ws, 'zero'), 'c', '1', '5']); // /dev/zero: an endless "file"
      execFileSync('mknod', [path.join(ws, 'urandom'), 'c', '1', '9']);
    } catch {
      mknod = false; // not root: only the symlink form (refused above) is left to an agent
    }
    mkdirSync(path.join(ws, 'dir'));
    await new Promise((resolve) => setTimeout(resolve, 200)); // the writer has opened fifo-w
    const started = Date.now();
    const results = Object.fromEntries(
      await Promise.all(['fifo', 'fifo-w', 'dir', '.', ...(mknod ? ['zero', 'urandom'] : [])].map(async (p) => [p, await codeOf(bridge.readFile(p))] as const)),
    );
    const socket = await codeOf(bridge.readFile('sock'));
    sock.close();
    writer.kill('SIGKILL');
    expect(Date.now() - started).toBeLessThan(5_000);
    for (const [p, code] of Object.entries(results)) expect(code, p).toBe('NOT_A_FILE');
    expect(['IO_ERROR', 'NOT_A_FILE']).toContain(socket); // ENXIO: never read
  });

  it('refuses a hard link to an outside file (HARD_LINKED), also one swapped in after the check', async () => {
    const { ws, out, bridge } = layout('hardlink');
    linkSync(path.join(out, 'secret'), path.join(ws, 'twin'));
    expect(await codeOf(bridge.readFile('twin'))).toBe('HARD_LINKED');
    // Admitted as a plain inside file, then swapped for a hard link to the secret before the open.
    writeFileSync(path.join(ws, 'swap'), 'inside');
    const guarded = await bridge.guard.admit('swap');
    rmSync(path.join(ws, 'swap'));
    linkSync(path.join(out, 'secret'), path.join(ws, 'swap'));
    const { fd } = await openVerifiedFd(bridge.guard, guarded, 0); // the fd check passes: same name, inside
    closeSync(fd);
    expect(await codeOf(bridge.readFile('swap'))).toBe('HARD_LINKED'); // the fstat'ed link count refuses it
  });

  // Was a hole, fixed (the test now asserts the fence): same as the hard-link race below, with the attacker's timing made exact: the file is
  // a hard link to an outside file when it is opened and verified, and the inside name is
  // unlinked before the fstat, so the link count the fence reads is 1 and the outside file's
  // bytes come back. sdk/fs-bridge/host-bridge.ts readFile (nlink judged after openVerifiedFd).
  it('refuses an outside file that was hard-linked in at the open and unlinked before the fstat', async () => {
    const { ws, out, bridge } = layout('hardlink-window');
    linkSync(path.join(out, 'secret'), path.join(ws, 'g'));
    fstatHook.once = () => rmSync(path.join(ws, 'g')); // the attacker unlinks its inside name now
    const read = bridge.readFile('g');
    // fstat'ed before the fd check: the unlinked name shows in /proc as "(deleted)", so the check refuses it.
    const code = await read.then((r) => `read: ${r.data.toString()}`, (error: { code?: string }) => error.code);
    expect(['PATH_NOT_ADMITTED', 'HARD_LINKED']).toContain(code);
  });

  it('openVerifiedFd refuses a final name swapped for a symlink, and a parent swapped for a symlink, between check and open', async () => {
    const { ws, out, bridge } = layout('swap-fd');
    writeFileSync(path.join(ws, 'f'), 'inside');
    mkdirSync(path.join(ws, 'd'));
    writeFileSync(path.join(ws, 'd', 'secret'), 'inside');
    const final = await bridge.guard.admit('f');
    const parent = await bridge.guard.admit('d/secret');
    rmSync(path.join(ws, 'f'));
    symlinkSync(path.join(out, 'secret'), path.join(ws, 'f'));
    renameSync(path.join(ws, 'd'), path.join(ws, 'd-old'));
    symlinkSync(out, path.join(ws, 'd'));
    expect(await codeOf(openVerifiedFd(bridge.guard, final, 0))).toBe('PATH_NOT_ADMITTED');
    expect(await codeOf(openVerifiedFd(bridge.guard, parent, 0))).toBe('PATH_NOT_ADMITTED');
    // A parent renamed to outside the mount after the check: the fd's real path is outside.
    const moved = await bridge.guard.admit('d-old/secret');
    renameSync(path.join(ws, 'd-old'), path.join(out, 'moved'));
    mkdirSync(path.join(ws, 'd-old'));
    writeFileSync(path.join(ws, 'd-old', 'secret'), 'inside again');
    // The name is back inside (a new file): the open gets the inside file, never the moved one.
    const { fd } = await openVerifiedFd(bridge.guard, moved, 0);
    closeSync(fd);
    expect((await bridge.readFile('d-old/secret')).data.toString()).toBe('inside again');
  });
});

describe('the read fast path: sizes, growth and shrinkage', () => {
  const sizes = [0, 1, SYNC_READ_MAX_BYTES - 1, SYNC_READ_MAX_BYTES, SYNC_READ_MAX_BYTES + 1, 2 * SYNC_READ_MAX_BYTES + 3];

  it.each(sizes)('reads a %i-byte file byte for byte, and refuses it under a cap one byte smaller', async (size) => {
    const { ws, bridge } = layout(`size-${size}`);
    const bytes = Buffer.from(Array.from({ length: size }, (_, i) => (i * 31 + (i >> 9)) & 0xff));
    writeFileSync(path.join(ws, 'f.bin'), bytes);
    const read = await bridge.readFile('f.bin', { maxBytes: size });
    expect(read.data.length).toBe(size);
    expect(read.data.equals(bytes)).toBe(true);
    if (size > 0) expect(await codeOf(bridge.readFile('f.bin', { maxBytes: size - 1 }))).toBe('FILE_TOO_LARGE');
  });

  it('stops at the cap for a file whose fstat size lies (stat says small, content grew past the boundary)', async () => {
    const { ws } = layout('lying-size');
    const file = path.join(ws, 'grow');
    writeFileSync(file, Buffer.alloc(10, 0x41));
    for (const cap of [SYNC_READ_MAX_BYTES - 1, SYNC_READ_MAX_BYTES, SYNC_READ_MAX_BYTES + 1]) {
      const fd = openSync(file, 'r');
      try {
        writeFileSync(file, Buffer.alloc(SYNC_READ_MAX_BYTES * 3, 0x42));
        // knownSize 0 (what /proc and sysfs files report): the read must still stop at cap + 1.
        await expect(readBoundedFd(fd, cap, 'grow', 0)).rejects.toMatchObject({ code: 'FILE_TOO_LARGE' });
        const exact = await readBoundedFd(fd, SYNC_READ_MAX_BYTES * 3, 'grow', 0);
        expect(exact.length).toBe(SYNC_READ_MAX_BYTES * 3);
      } finally {
        closeSync(fd);
        writeFileSync(file, Buffer.alloc(10, 0x41));
      }
    }
  });

  it('never returns bytes the file did not hold while another process grows and truncates it (no uninitialised memory)', async () => {
    const { ws, bridge } = layout('churn');
    const file = path.join(ws, 'churn');
    writeFileSync(file, Buffer.alloc(SYNC_READ_MAX_BYTES + 4096, 0x43));
    // A writer that truncates and refills with 'C' as fast as it can, around the 256 KiB boundary.
    const py = `
import os, sys
p = sys.argv[1]; n = ${SYNC_READ_MAX_BYTES}
chunk = b'C' * 4096
while not os.path.exists(p + '.stop'):
    for size in (0, 1, n - 1, n, n + 1, 2 * n + 7, 5):
        with open(p, 'r+b') as f:
            f.truncate(0)
            left = size
            while left > 0:
                k = min(left, len(chunk)); f.write(chunk[:k]); left -= k
`;
    const churner = startDetached('python3', ['-c', py, file], ws);
    const seen = { ok: 0, tooLarge: 0, other: [] as string[] };
    const deadline = Date.now() + 3_000;
    try {
      while (Date.now() < deadline) {
        try {
          const read = await bridge.readFile('churn', { maxBytes: 2 * SYNC_READ_MAX_BYTES });
          seen.ok++;
          // Every byte returned is a byte the writer wrote ('C'): nothing from a reused buffer.
          const foreign = read.data.findIndex((b) => b !== 0x43);
          expect(foreign, `byte ${foreign} of a ${read.data.length}-byte read is not the file's`).toBe(-1);
          expect(read.data.length).toBeLessThanOrEqual(2 * SYNC_READ_MAX_BYTES);
        } catch (error) {
          const code = (error as { code?: string }).code;
          if (code === 'FILE_TOO_LARGE') seen.tooLarge++;
          else seen.other.push(String(code));
        }
      }
    } finally {
      writeFileSync(`${file}.stop`, '');
      churner.kill('SIGKILL');
    }
    expect(seen.ok).toBeGreaterThan(0);
    expect(seen.other).toEqual([]);
  });

  it('reads a /proc-like file (fstat size 0, content larger) whole or refuses it at the cap, through an operator mount', async () => {
    // No agent can put a procfs file into its workspace; an operator's read-only mount can.
    const bridge = new HostFsBridge({ mappings: [{ hostRoot: '/proc/self', containerRoot: '/proc-ro', readOnly: true }] });
    const status = await bridge.readFile('/proc-ro/status');
    expect(status.data.toString()).toMatch(/^Name:/);
    expect(await codeOf(bridge.readFile('/proc-ro/maps', { maxBytes: 64 }))).toBe('FILE_TOO_LARGE');
    // /proc/self/fd/N and cwd are magic links out of the mount: refused, never followed to the target.
    expect(await codeOf(bridge.readFile('/proc-ro/cwd/package.json'))).toBe('PATH_OUTSIDE_MOUNT');
    expect(await codeOf(bridge.readFile('/proc-ro/root/etc/hostname'))).toBe('PATH_OUTSIDE_MOUNT');
  });
});

/**
 * The attacker: a Python loop (no fork per swap) in the workspace that swaps names for other
 * kinds of entries, each state lasting about as long as a read's check-to-use gap.
 * `swaps` is Python: calls of swap(name, tmp, make).
 */
function raceAttacker(ws: string, out: string, swaps: string): ChildProcess {
  const py = `
import os, sys, time
ws, out = sys.argv[1], sys.argv[2]
os.chdir(ws)
n = 0
print('started', flush=True)
def swap(a, tmp, make):
    try: os.rename(a, tmp)
    except OSError: return
    try: make(a)
    except OSError: pass
    try: os.unlink(a)
    except OSError: pass
    try: os.rename(tmp, a)
    except OSError: pass
while not os.path.exists('stop'):
${swaps}
    n += 1
print(n, flush=True)
`;
  return startDetached('python3', ['-c', py, ws, out], ws);
}

interface Campaign {
  rounds: number;
  escapes: string[];
  codes: Record<string, number>;
}

/** Reads `paths` in turn for at least `ms` (and `minReads` reads), or until the first escape when `untilEscape`. */
async function raceCampaign(bridge: HostFsBridge, ws: string, attacker: ChildProcess, paths: string[], options: { ms: number; minReads?: number; untilEscape?: boolean }): Promise<Campaign> {
  let said = '';
  attacker.stdout!.on('data', (chunk: Buffer) => (said += chunk.toString()));
  await new Promise<void>((resolve) => attacker.stdout!.once('data', () => resolve()));
  const escapes: string[] = [];
  const codes: Record<string, number> = {};
  const until = Date.now() + options.ms;
  try {
    for (let i = 0; i < (options.minReads ?? 0) || Date.now() < until; i++) {
      const p = paths[i % paths.length]!;
      try {
        const read = await bridge.readFile(p, { maxBytes: 1 << 20 });
        if (read.data.toString().includes('SECRET')) escapes.push(`${p} returned the outside secret (as ${read.path})`);
        if (!read.path.startsWith('/workspace/')) escapes.push(`${p} reported ${read.path}`);
        codes.ok = (codes.ok ?? 0) + 1;
      } catch (error) {
        const code = (error as { code?: string }).code ?? String(error);
        codes[code] = (codes[code] ?? 0) + 1;
      }
      if (options.untilEscape && escapes.length > 0) break;
    }
  } finally {
    writeFileSync(path.join(ws, 'stop'), '');
  }
  await new Promise((resolve) => attacker.once('close', resolve)); // after its stdout is drained
  return { rounds: Number(said.replace('started', '').trim()), escapes, codes };
}

/** Typed refusals a read may meet mid-swap (IO_ERROR: a realpath that met a name mid-swap, EINVAL). */
const RACE_CODES = ['ok', 'PATH_OUTSIDE_MOUNT', 'PATH_NOT_ADMITTED', 'NOT_FOUND', 'NOT_A_FILE', 'HARD_LINKED', 'NOT_A_DIRECTORY', 'IO_ERROR'];

describe('the read fast path against a racing attacker', () => {
  it('returns no outside byte while directories and files are swapped for symlinks (to a file, a directory, /dev/zero) and FIFOs', async () => {
    const { ws, out, bridge } = layout('race');
    mkdirSync(path.join(ws, 'd'));
    writeFileSync(path.join(ws, 'd', 'f'), 'inside');
    writeFileSync(path.join(ws, 'g'), 'inside');
    writeFileSync(path.join(out, 'f'), SECRET);
    execFileSync('mkfifo', [path.join(ws, 'fifo')]);
    const attacker = raceAttacker(ws, out, `
    swap('d', 'd.real', lambda a: os.symlink(out, a))
    swap('d/f', 'd/f.real', lambda a: os.symlink(out + '/f', a))
    swap('g', 'g.real', lambda a: os.symlink(out + '/f', a))
    swap('g', 'g.real', lambda a: os.symlink('/dev/zero', a))
    swap('g', 'g.real', lambda a: os.rename('fifo', a))
    if not os.path.lexists('fifo'): os.mkfifo('fifo')`);
    const { rounds, escapes, codes } = await raceCampaign(bridge, ws, attacker, ['d/f', 'g', '/workspace/d/f', 'd/../g', 'd/./f'], { ms: 4_000, minReads: 4_000 });
    console.log(`race: ${rounds} swap rounds; outcomes ${JSON.stringify(codes)}`);
    expect(rounds, 'the attacker swapped while the reads ran').toBeGreaterThan(10);
    expect(escapes).toEqual([]);
    // Only typed refusals, and a swapped-in FIFO or device never hung a read.
    for (const code of Object.keys(codes)) expect(RACE_CODES).toContain(code);
    expect(codes.ok ?? 0).toBeGreaterThan(0);
    // Reads change nothing, even mid-swap: the outside file is where it was (a read once renamed a
    // name onto itself as a lock barrier, which a parent swapped in between made a move inside).
    expect(readFileSync(path.join(out, 'f'), 'utf8')).toBe(SECRET);
  }, 120_000);

  // Was a hole, fixed (the test now asserts the fence): the HARD_LINKED fence is a point-in-time link count, checked after the fd check. An
  // attacker that can hard-link an outside file into the workspace (same file system) links it
  // as `g`, and unlinks `g` again right after the backend opened it: the fd is the outside
  // file's inode, /proc/self/fd still named ws/g when it was verified, and the fstat that follows
  // sees nlink 1, so the outside file's bytes are returned as /workspace/g.
  // sdk/fs-bridge/host-bridge.ts readFile: openVerifiedFd (verify by name) then
  // `stat.nlink > 1n` on the fd; nothing ties the link count to the moment of the open. The
  // async path it replaced had the same order, so this is not new with the fast path.
  it('returns no outside byte while a file is swapped for a hard link to an outside file', async () => {
    const { ws, out, bridge } = layout('race-hardlink');
    writeFileSync(path.join(ws, 'g'), 'inside');
    writeFileSync(path.join(out, 'f'), SECRET);
    const attacker = raceAttacker(ws, out, `
    swap('g', 'g.real', lambda a: os.link(out + '/f', a))`);
    const { rounds, escapes } = await raceCampaign(bridge, ws, attacker, ['g'], { ms: 15_000, untilEscape: true });
    console.log(`hard-link race: ${rounds} swap rounds; first escape: ${escapes[0] ?? 'none'}`);
    expect(escapes).toEqual([]);
  }, 120_000);
});

describe('one huge read against the other sessions of a backend', () => {
  it('a 9 MiB read (past the synchronous part) does not hold up a small read of another session', async () => {
    const { ws } = layout('starve');
    const big = Buffer.alloc(9 * 1024 * 1024, 0x61);
    writeFileSync(path.join(ws, 'big'), big);
    writeFileSync(path.join(ws, 'small'), 'small');
    const a = new LocalWorkspace({ workspaceDir: ws, session: 'a' });
    const b = new LocalWorkspace({ workspaceDir: ws, session: 'b' });
    const order: string[] = [];
    let longest = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    try {
      for (let round = 0; round < 5; round++) {
        order.length = 0;
        const bigRead = a.read('big', { maxBytes: 10 * 1024 * 1024 }).then((r) => order.push(`big:${r.size}`));
        // Issued after the big read started: it must not wait for the whole 9 MiB.
        await new Promise((resolve) => setImmediate(resolve));
        const smallRead = b.read('small').then((r) => order.push(`small:${r.size}`));
        await Promise.all([bigRead, smallRead]);
        expect(order[0], `round ${round}: ${order.join(', ')}`).toBe('small:5');
      }
    } finally {
      clearInterval(ticker);
    }
    // The event loop is blocked at most for the synchronous part (logged; the machine is noisy).
    console.log(`longest event-loop gap during 9 MiB reads: ${longest.toFixed(1)} ms`);
  }, 60_000);

  it('a file under a write lease held by the attacker does not hang the synchronous open (O_NONBLOCK)', async () => {
    const { ws, bridge } = layout('lease');
    const file = path.join(ws, 'leased');
    writeFileSync(file, 'leased');
    // F_SETLEASE(F_WRLCK): an open for reading blocks until the lease is broken (lease-break-time, 45 s by default).
    const py = `
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY)
F_SETLEASE = getattr(fcntl, 'F_SETLEASE', 1024)
try:
    fcntl.fcntl(fd, F_SETLEASE, fcntl.F_WRLCK)
    print('leased', flush=True)
except OSError as e:
    print('no-lease', e, flush=True)
time.sleep(30)
`;
    const holder = startDetached('python3', ['-c', py, file], ws);
    const said = await new Promise<string>((resolve) => holder.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString())));
    const started = Date.now();
    const code = await codeOf(bridge.readFile('leased'));
    const took = Date.now() - started;
    holder.kill('SIGKILL');
    expect(took, `read took ${took} ms (${said.trim()}, ${code})`).toBeLessThan(5_000);
    if (said.startsWith('leased')) expect(['IO_ERROR', 'ok']).toContain(code);
  }, 30_000);
});

describe('the read tool through the kernel, the fs plugin and the local backend', () => {
  let ws: string;
  let out: string;
  let configPath: string;
  let cfg: PincerConfig;

  beforeEach(() => {
    ws = realpathSync(tempDir('pincer-rt-rfp-kernel-'));
    out = realpathSync(tempDir('pincer-rt-rfp-kernel-out-'));
    writeFileSync(path.join(out, 'secret'), SECRET);
    mkdirSync(path.join(ws, '.git'));
    writeFileSync(path.join(ws, '.git', 'config'), '[core]\n\tbare = false\n');
    writeFileSync(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    cfg = { plugins: bundledPluginConfigs(), tools: { profile: 'coding' }, agents: { list: [{ id: 'main', workspace: ws }] } } as PincerConfig;
    configPath = path.join(ws, 'pincer.config.json');
    writeFileSync(configPath, JSON.stringify(cfg, null, 2));
  });

  it('refuses outside links, `..`, NUL, devices and FIFOs with typed errors; the secret never reaches the model', async () => {
    symlinkSync(path.join(out, 'secret'), path.join(ws, 'link'));
    symlinkSync(out, path.join(ws, 'outdir'));
    symlinkSync('/dev/zero', path.join(ws, 'zero'));
    symlinkSync('/dev/stdin', path.join(ws, 'stdin'));
    symlinkSync('/proc/self/environ', path.join(ws, 'environ'));
    execFileSync('mkfifo', [path.join(ws, 'fifo')]);
    const rel = path.relative(ws, path.join(out, 'secret'));
    await withKernel(cfg, { configPath, cwd: ws }, async (kernel) => {
      const tools = kernel.assembleTools({ agentId: 'main' });
      const expectations: [Record<string, unknown>, RegExp][] = [
        [{ path: 'link' }, /PATH_OUTSIDE_MOUNT/],
        [{ path: 'outdir/secret' }, /PATH_OUTSIDE_MOUNT/],
        [{ path: 'zero' }, /PATH_OUTSIDE_MOUNT/],
        [{ path: 'stdin' }, /PATH_OUTSIDE_MOUNT/],
        [{ path: 'environ', encoding: 'base64' }, /PATH_OUTSIDE_MOUNT/],
        [{ path: 'fifo' }, /NOT_A_FILE/],
        [{ path: rel }, /PATH_OUTSIDE_MOUNT|PATH_NOT_ADMITTED/],
        [{ path: path.join(out, 'secret') }, /PATH_NOT_ADMITTED|PATH_OUTSIDE_MOUNT/],
        [{ path: 'a\u0000b' }, /PATH_NOT_ADMITTED/],
        [{ path: 'x'.repeat(256) }, /PATH_NOT_ADMITTED/],
        [{ path: '/workspace/../../../../etc/passwd' }, /PATH_OUTSIDE_MOUNT|PATH_NOT_ADMITTED/],
      ];
      for (const [args, expected] of expectations) {
        const result = await tools.execute('read', args);
        const shown = text(result);
        expect(shown, JSON.stringify(args).slice(0, 60)).toMatch(expected);
        expect(shown).not.toContain('SECRET');
        expect(JSON.stringify(result.details ?? null)).not.toContain('SECRET');
      }
    });
  }, 120_000);

  it('reads the config and .git (reads of protected paths are allowed) but refuses writes through every alias: symlink, hard link, case', async () => {
    symlinkSync('.git/config', path.join(ws, 'gitconfig-link'));
    symlinkSync('pincer.config.json', path.join(ws, 'config-link'));
    linkSync(configPath, path.join(ws, 'config-hardlink'));
    linkSync(path.join(ws, '.git', 'config'), path.join(ws, 'git-hardlink'));
    const configBefore = readFileSync(configPath, 'utf8');
    const gitBefore = readFileSync(path.join(ws, '.git', 'config'), 'utf8');
    await withKernel(cfg, { configPath, cwd: ws }, async (kernel) => {
      const tools = kernel.assembleTools({ agentId: 'main' });
      expect(text(await tools.execute('read', { path: '.git/HEAD' }))).toContain('refs/heads/main');
      // .git/config now has a second link (git-hardlink): refused for reading too, as documented.
      expect(text(await tools.execute('read', { path: '.git/config' }))).toContain('HARD_LINKED');
      // The hard-linked config itself now has two links: read is refused too (HARD_LINKED), as documented.
      expect(text(await tools.execute('read', { path: 'config-hardlink' }))).toContain('HARD_LINKED');
      for (const p of ['gitconfig-link', 'config-link', '.GIT/config', './.git/../.git/config', 'pincer.config.json']) {
        const result = await tools.execute('write', { path: p, content: 'pwned' });
        expect(text(result), p).toMatch(/PROTECTED_PATH|HARD_LINKED/);
      }
      for (const p of ['config-hardlink', 'git-hardlink']) {
        const result = await tools.execute('write', { path: p, content: 'pwned' });
        expect(text(result), p).toContain('HARD_LINKED');
        const edit = await tools.execute('edit', { path: p, oldText: 'bare', newText: 'pwned' });
        expect(text(edit), p).toMatch(/HARD_LINKED/);
      }
    });
    expect(readFileSync(configPath, 'utf8')).toBe(configBefore);
    expect(readFileSync(path.join(ws, '.git', 'config'), 'utf8')).toBe(gitBefore);
    expect(existsSync(path.join(ws, '.GIT', 'config')) && readFileSync(path.join(ws, '.GIT', 'config'), 'utf8') === 'pwned').toBe(false);
  }, 120_000);

  it('reads files at and across the 256 KiB boundary whole through the tool (base64 round trip)', async () => {
    const sizes = [SYNC_READ_MAX_BYTES - 1, SYNC_READ_MAX_BYTES, SYNC_READ_MAX_BYTES + 1];
    const files = sizes.map((size, i) => {
      const bytes = Buffer.from(Array.from({ length: size }, (_, j) => (j * 13 + i) & 0xff));
      writeFileSync(path.join(ws, `b${i}.bin`), bytes);
      return bytes;
    });
    await withKernel(cfg, { configPath, cwd: ws }, async (kernel) => {
      const tools = kernel.assembleTools({ agentId: 'main' });
      for (let i = 0; i < sizes.length; i++) {
        const result = await tools.execute('read', { path: `b${i}.bin`, encoding: 'base64' });
        expect(Buffer.from(text(result), 'base64').equals(files[i]!), `size ${sizes[i]}`).toBe(true);
      }
    });
  }, 120_000);
});
