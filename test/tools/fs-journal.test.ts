import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FS_TOOLS } from '../../plugins/fs/src/tools.js';
import { JournalDirError, pluginDataDir } from '../../plugins/fs/src/journal/data-dir.js';
import { isOwnerAlive, ownerTag } from '../../plugins/fs/src/journal/owner.js';
import { recoverSession } from '../../plugins/fs/src/journal/recover.js';
import { Journal, JournalStore } from '../../plugins/fs/src/journal/store.js';
import { hashOf } from '../../plugins/fs/src/journal/undo.js';
import { memoryFixture } from './fs-fixtures.js';
import { callTool, errorCodeOf, textOf } from './helpers.js';

const tool = (name: string) => FS_TOOLS.find((t) => t.name === name)!;
/** A process that is gone: its tag names a pid with a start time no running process has. */
const DEAD = '2147483646.1';

let scratch: string;
let store: JournalStore;
beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'pincer-journal-'));
  store = new JournalStore(path.join(scratch, 'patch-journal'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

/** Every journal file on disk, of any session. */
const journalFiles = (): string[] => readdirSync(store.root).flatMap((session) => readdirSync(path.join(store.root, session)));

/** Re-tag a journal's files as written by `owner`, as if that process had written them and then died (or still runs). */
function ownedBy(journal: Journal, owner: string): void {
  const dir = path.dirname(journal.file);
  const id = path.basename(journal.file).split('.')[2] as string;
  for (const name of readdirSync(dir).filter((n) => n.split('.')[2] === id)) renameSync(path.join(dir, name), path.join(dir, `${owner}.${name.split('.').slice(2).join('.')}`));
  journal.release();
}

describe('journal owners', () => {
  it('knows this process is alive and a made-up one is not, and a reused pid with another start time is dead', () => {
    expect(isOwnerAlive(ownerTag())).toBe(true);
    expect(isOwnerAlive(DEAD)).toBe(false);
    expect(isOwnerAlive(`${process.pid}.1`)).toBe(false);
    const child = spawnSync(process.execPath, ['-e', '']);
    expect(isOwnerAlive(`${child.pid}.0`)).toBe(false);
  });
});

describe('recovery before each fs call', () => {
  it('finishes a patch whose changes all landed (state committed): the parked original goes, the new content stays', async () => {
    const f = memoryFixture();
    await f.put('gone.txt', 'old\n');
    const journal = await store.begin('s', [{ op: 'delete', target: '/workspace/gone.txt', trash: '/workspace/.pincer-trash-x-0' }], new Map());
    await f.workspace.rename('gone.txt', '.pincer-trash-x-0');
    await journal.markCommitted();
    ownedBy(journal, DEAD);
    const result = await callTool(tool('ls'), { all: true }, f.workspace, undefined, { journals: store, call: { sessionKey: 's' } });
    expect(textOf(result)).toMatch(/^\[Before this call: 1 apply_patch call\(s\) interrupted after all their changes landed were completed\.\]/);
    expect(await f.list()).toEqual([]);
    expect(journalFiles()).toEqual([]);
  });

  it('undoes a prepared patch of a dead process, but never one whose writer still runs, nor one of another session', async () => {
    const f = memoryFixture();
    await f.put('a.txt', 'new\n');
    const change = { op: 'update' as const, target: '/workspace/a.txt', beforeHash: hashOf(Buffer.from('old\n')), afterHash: hashOf(Buffer.from('new\n')) };
    ownedBy(await store.begin('s', [change], new Map([[0, Buffer.from('old\n')]])), ownerTag(process.ppid));
    const ctx = { journals: store, call: { sessionKey: 's' } };
    expect(textOf(await callTool(tool('read'), { path: 'a.txt' }, f.workspace, undefined, ctx))).toBe('new');

    ownedBy(await store.begin('other session', [change], new Map([[0, Buffer.from('old\n')]])), DEAD);
    expect(textOf(await callTool(tool('read'), { path: 'a.txt' }, f.workspace, undefined, ctx))).toBe('new');

    ownedBy(await store.begin('s', [change], new Map([[0, Buffer.from('old\n')]])), DEAD);
    const read = await callTool(tool('read'), { path: 'a.txt' }, f.workspace, undefined, ctx);
    expect(journalFiles()).toHaveLength(2); // the live writer's and the other session's stay
    expect(textOf(read)).toBe('[Before this call: 1 apply_patch call(s) interrupted by a crash were undone; their files are as before them.]old');
    expect(await f.bytes('a.txt')).toEqual(Buffer.from('old\n'));
  });

  it('removes the temp file of a journal that crashed before its intent was complete (no change was made yet)', async () => {
    const journal = await store.begin('s', [], new Map());
    renameSync(journal.file, `${journal.file}.tmp`);
    ownedBy(journal, DEAD);
    expect(journalFiles()).toEqual([expect.stringMatching(/^2147483646\.1\.[0-9a-f]+\.json\.tmp$/)]);
    expect(await recoverSession(store, 's', memoryFixture().workspace, new AbortController().signal)).toEqual({ undone: 0, finished: 0, notRestored: [] });
    expect(journalFiles()).toEqual([]);
  });
});

describe('the journal directory', () => {
  it('is $PINCER_PLUGIN_DATA_DIR when the host gives one', () => {
    expect(pluginDataDir({ PINCER_PLUGIN_DATA_DIR: '/state/plugins/fs' })).toBe('/state/plugins/fs');
  });

  it('falls back to a private per-user temp directory, and refuses one that others can read', () => {
    const env = { TMPDIR: scratch };
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    try {
      const dir = pluginDataDir(env);
      expect(path.dirname(dir)).toBe(scratch);
      expect(statSync(dir).mode & 0o777).toBe(0o700);
      rmSync(dir, { recursive: true });
      mkdirSync(dir, { mode: 0o755 });
      expect(() => pluginDataDir(env)).toThrow(JournalDirError);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it('a multi-file patch that cannot write its journal changes nothing and says why', async () => {
    const f = memoryFixture();
    await f.put('a.txt', 'a\n');
    await f.put('b.txt', 'b\n');
    writeFileSync(path.join(scratch, 'not-a-dir'), '');
    const broken = new JournalStore(path.join(scratch, 'not-a-dir', 'patch-journal'));
    const input = ['*** Begin Patch', '*** Update File: a.txt', '-a', '+A', '*** Update File: b.txt', '-b', '+B', '*** End Patch'].join('\n');
    const result = await callTool(tool('apply_patch'), { input }, f.workspace, undefined, { journals: broken });
    expect(errorCodeOf(result)).toBe('JOURNAL_UNAVAILABLE');
    expect(textOf(result)).toMatch(/nothing was changed/);
    expect(await f.bytes('a.txt')).toEqual(Buffer.from('a\n'));
    expect(await f.bytes('b.txt')).toEqual(Buffer.from('b\n'));
  });
});
