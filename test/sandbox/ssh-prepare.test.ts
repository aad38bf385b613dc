import { execFileSync } from 'node:child_process';
import { readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { SyncProgress } from '../../plugins/sandbox-ssh/src/sync/sync-target.js';
import { HAS_SSH, tempDir } from './services.js';
import { codeOf, eventually, openSsh, removeRoot, sshRoot, treeOf } from './ssh-fixtures.js';

const ROOT = sshRoot('prepare');
const MB = 1024 * 1024;

/** 48 files of 4 MiB (192 MiB): long enough to be caught mid-upload on any machine. */
function largeWorkspace(): string {
  const dir = tempDir('ssh-large');
  const block = Buffer.alloc(4 * MB);
  for (let i = 0; i < 48; i++) {
    block.writeUInt32LE(i, 0); // distinct contents
    writeFileSync(join(dir, `blob-${String(i).padStart(2, '0')}.bin`), block);
  }
  return dir;
}

/** Upload steps running on the remote under `root`, by their list file (the test sshd runs on this machine). */
function remoteSyncProcesses(root: string): string[] {
  const lines = execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).split('\n').filter((line) => line.includes(root));
  return [...new Set(lines.flatMap((line) => line.match(/\.apply-[0-9a-f]+/g) ?? []))];
}

/** Files under `dir` this process holds open (read from /proc: Linux only, like the test sshd). */
function openFilesUnder(dir: string): string[] {
  const held: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(`${dir}/`)) held.push(target);
    } catch {
      // closed meanwhile
    }
  }
  return held;
}

describe.skipIf(!HAS_SSH)('ssh prepare: one at a time, cancellable for real, with progress (real sshd)', () => {
  afterAll(() => removeRoot(ROOT));
  // Small batches (a cancel loses at most one); a wait long enough for a loaded machine.
  const batches = { sync: { batchBytes: 24 * MB, waitMs: 600_000 } };

  it('stops the upload when its caller gives up, never takes the cut copy as complete, and resumes it later', async () => {
    const host = largeWorkspace();
    const dataDir = tempDir('ssh-data');
    const controller = new AbortController();
    const seen: SyncProgress[] = [];
    const cancelled = openSsh(ROOT, host, {
      dataDir, settings: batches, signal: controller.signal,
      onProgress: (p) => {
        seen.push(p);
        if (p.bytesDone > 40 * MB) controller.abort(new Error('the caller gave up'));
      },
    });
    await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED' });
    await eventually(() => remoteSyncProcesses(ROOT).length === 0, 'the remote upload to stop');
    // The file being read when the upload stopped is closed then, not whenever it is collected.
    await eventually(() => openFilesUnder(host).length === 0, 'the host files the upload read to be closed', 20_000);
    expect(seen.at(-1)!.bytesDone).toBeLessThan(seen.at(-1)!.bytesTotal);

    // A caller with (almost) no time gets "still syncing", not a partial copy; the sync goes on.
    await expect(openSsh(ROOT, host, { dataDir, settings: { sync: { ...batches.sync, waitMs: 1 } } }))
      .rejects.toMatchObject({ code: 'SYNC_IN_PROGRESS', message: expect.stringContaining('still being copied to ssh') });

    const resumed: SyncProgress[] = [];
    const ws = await openSsh(ROOT, host, { dataDir, settings: batches, onProgress: (p) => resumed.push(p) });
    try {
      expect(treeOf(ws.copies[0]!.copy.treeDir)).toEqual(treeOf(host));
      // Batches confirmed before the cancel were kept: the rest of the work was smaller than the whole.
      expect(Math.min(...resumed.map((p) => p.entriesTotal))).toBeLessThan(48);
      expect((await ws.exec('ls | wc -l')).stdout.trim()).toBe('48');
    } finally {
      await ws.close();
    }
  }, 600_000);

  it('runs one upload for concurrent prepares of the same workspace, each told how far it got', async () => {
    const host = largeWorkspace();
    const dataDir = tempDir('ssh-data');
    const progressA: SyncProgress[] = [];
    const progressB: SyncProgress[] = [];
    let peak = 0;
    const watching = setInterval(() => { peak = Math.max(peak, remoteSyncProcesses(ROOT).length); }, 50);
    try {
      const [a, b] = await Promise.all([
        openSsh(ROOT, host, { dataDir, settings: batches, onProgress: (p) => progressA.push(p) }),
        openSsh(ROOT, host, { dataDir, settings: batches, onProgress: (p) => progressB.push(p) }),
      ]);
      try {
        expect(a.copies[0]!.copy).toBe(b.copies[0]!.copy);
        const finished = progressA.filter((p) => p.entriesTotal > 0 && p.entriesDone === p.entriesTotal);
        expect(finished).toHaveLength(1);
        expect(progressB.length).toBeGreaterThan(1);
        expect(progressA.some((p) => p.bytesDone > 0 && p.bytesDone < p.bytesTotal)).toBe(true);
        expect(treeOf(a.copies[0]!.copy.treeDir)).toEqual(treeOf(host));
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    } finally {
      clearInterval(watching);
    }
    expect(peak).toBeLessThanOrEqual(1);
  }, 600_000);

  it('a caller that gives up leaves the shared upload running for the callers still waiting', async () => {
    const host = largeWorkspace();
    const dataDir = tempDir('ssh-data');
    const stayerProgress: SyncProgress[] = [];
    const stayer = openSsh(ROOT, host, { dataDir, settings: batches, onProgress: (p) => stayerProgress.push(p) });
    await eventually(() => stayerProgress.some((p) => p.bytesDone > 0), 'the upload to start');
    const controller = new AbortController();
    const quitter = openSsh(ROOT, host, { dataDir, settings: batches, signal: controller.signal, onProgress: () => controller.abort() });
    expect(await codeOf(quitter)).toBe('CANCELLED');
    const ws = await stayer;
    try {
      // One push of all 48 entries ran to its end: it was neither cancelled nor started again.
      expect(stayerProgress.filter((p) => p.entriesDone === p.entriesTotal && p.entriesTotal > 0).map((p) => p.entriesTotal)).toEqual([48]);
      expect(treeOf(ws.copies[0]!.copy.treeDir)).toEqual(treeOf(host));
    } finally {
      await ws.close();
    }
  }, 600_000);
});
