import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { Store, StoreError, type Migration } from '../../sdk/store/index.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MIGRATIONS: Migration[] = [
  { version: 1, description: 'items', up: 'CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL)' },
  { version: 2, description: 'item notes', up: 'ALTER TABLE item ADD COLUMN note TEXT' },
];

const open: Store[] = [];
function dbFile(): string {
  return path.join(mkdtempSync(path.join(os.tmpdir(), 'pincer-store-')), 'data', 'store.sqlite');
}
function openStore(file: string, migrations = MIGRATIONS, busyTimeoutMs?: number): Store {
  const store = Store.open({ file, migrations, busyTimeoutMs });
  open.push(store);
  return store;
}
function storeError(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    return error as StoreError;
  }
  throw new Error('expected a StoreError');
}
afterEach(() => {
  for (const store of open.splice(0)) store.close();
});

describe('the embedded store', () => {
  it('creates an owner-only WAL database and migrates it once', () => {
    const file = dbFile();
    const store = openStore(file);
    store.write('adding', (db) => db.prepare("INSERT INTO item (name, note) VALUES ('a', 'n')").run());
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    expect(store.read('mode', (db) => db.pragma('journal_mode', { simple: true }))).toBe('wal');
    store.close();
    const again = openStore(file);
    expect(again.read('listing', (db) => db.prepare('SELECT name, note FROM item').all())).toEqual([{ name: 'a', note: 'n' }]);
    expect(again.read('version', (db) => db.pragma('user_version', { simple: true }))).toBe(2);
  });

  it('refuses a database written by a newer release, naming the file', () => {
    const file = dbFile();
    openStore(file).close();
    const error = storeError(() => openStore(file, MIGRATIONS.slice(0, 1)));
    expect(error.code).toBe('STORE_NEWER_SCHEMA');
    expect(error.message).toContain(file);
  });

  it('leaves the previous schema in place when a migration fails', () => {
    const file = dbFile();
    openStore(file, MIGRATIONS.slice(0, 1)).close();
    const broken: Migration[] = [MIGRATIONS[0]!, { version: 2, description: 'broken', up: 'ALTER TABLE item ADD COLUMN x TEXT; SELECT * FROM missing_table' }];
    expect(storeError(() => openStore(file, broken)).message).toContain(file);
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect((db.prepare('PRAGMA table_info(item)').all() as { name: string }[]).map((c) => c.name)).toEqual(['id', 'name']);
    db.close();
  });

  it('reports a file locked by another connection as STORE_LOCKED, naming it, and commits nothing', () => {
    const file = dbFile();
    const store = openStore(file, MIGRATIONS, 50);
    const other = new Database(file);
    other.exec('BEGIN EXCLUSIVE');
    const error = storeError(() => store.write('adding', (db) => db.prepare("INSERT INTO item (name) VALUES ('locked out')").run()));
    expect(error.code).toBe('STORE_LOCKED');
    expect(error.message).toContain(file);
    other.exec('ROLLBACK');
    other.close();
    expect(store.read('counting', (db) => db.prepare('SELECT count(*) AS n FROM item').get())).toEqual({ n: 0 });
  });

  it('refuses a corrupted file as STORE_CORRUPT and leaves its bytes untouched', () => {
    const file = dbFile();
    openStore(file).close();
    const garbage = Buffer.from('this is not a database '.repeat(300));
    writeFileSync(file, garbage);
    const error = storeError(() => openStore(file));
    expect(error.code).toBe('STORE_CORRUPT');
    expect(error.message).toContain(file);
    expect(readFileSync(file).equals(garbage)).toBe(true);
  });

  it('reports a full database as STORE_FULL and keeps everything committed before it', () => {
    const file = dbFile();
    const store = openStore(file);
    store.write('adding', (db) => db.prepare("INSERT INTO item (name) VALUES ('kept')").run());
    const pages = store.read('size', (db) => db.pragma('page_count', { simple: true }) as number);
    // The database may not grow past its current size plus a few pages: the same refusal as a full disk.
    store.read('limiting', (db) => db.pragma(`max_page_count = ${pages + 4}`));
    const error = storeError(() =>
      store.write('adding a big batch', (db) => {
        for (let i = 0; i < 200; i++) db.prepare('INSERT INTO item (name) VALUES (?)').run('y'.repeat(4000));
      }),
    );
    expect(error.code).toBe('STORE_FULL');
    expect(error.message).toContain(file);
    expect(store.read('listing', (db) => db.prepare('SELECT name FROM item').all())).toEqual([{ name: 'kept' }]);
  });

  it('loses no committed write and keeps no half-written one when the writer is SIGKILLed mid-burst', async () => {
    const file = dbFile();
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/test/fixtures/store/write-burst.js'), file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let reported = 0;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const killed = new Promise<void>((resolve) => child.on('exit', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      let buffer = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        const lines = buffer.split('\n');
        buffer = lines.pop()!;
        for (const line of lines) reported = Math.max(reported, Number(line));
        if (reported >= 300 && child.exitCode === null) {
          child.kill('SIGKILL');
          resolve();
        }
      });
      child.on('exit', (code) => reject(new Error(`the writer exited (${code}) before it was killed: ${stderr}`)));
    });
    await killed;
    const db = new Database(file, { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const parents = (db.prepare('SELECT count(*) AS n, max(id) AS top FROM parent').get() as { n: number; top: number });
    const orphans = db.prepare('SELECT count(*) AS n FROM parent p WHERE (SELECT count(*) FROM child c WHERE c.parent_id = p.id) != 2').get() as { n: number };
    const strays = db.prepare('SELECT count(*) AS n FROM child c WHERE c.parent_id NOT IN (SELECT id FROM parent)').get() as { n: number };
    db.close();
    // Every write reported as committed is there; the writer may have committed a few more before the kill landed.
    expect(parents.n).toBeGreaterThanOrEqual(reported);
    expect(parents.n).toBe(parents.top); // no gap: transactions commit in order
    expect(orphans.n).toBe(0); // no parent without both children
    expect(strays.n).toBe(0); // no child without its parent
  });
});
