/**
 * The embedded store: one SQLite file (better-sqlite3) in WAL mode, owner-only, migrated on
 * open, with one writer per process. Every write is a transaction taken with the write lock
 * up front (BEGIN IMMEDIATE), so it either commits whole or leaves nothing behind, and a
 * process killed mid-write loses nothing it had committed (synchronous=FULL).
 */
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type BetterSqlite3 from 'better-sqlite3';
import { StoreError, toStoreError } from './errors.js';
import { migrate, type Migration } from './migrate.js';

export type SqliteDatabase = BetterSqlite3.Database;

/** @since 1 */
export interface StoreOptions {
  /** The database file; its folder is created owner-only (0700) and the file 0600. */
  file: string;
  migrations: readonly Migration[];
  /** How long a write waits for another process's lock before STORE_LOCKED (default 5 s). */
  busyTimeoutMs?: number;
}

/** Opens the file owner-only, refusing anything that is not a healthy database of ours. */
function openDatabase(file: string, busyTimeoutMs: number): SqliteDatabase {
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Created 0600 before SQLite touches it; SQLite gives its -wal and -shm files the same mode.
    closeSync(openSync(file, 'a', 0o600));
    chmodSync(file, 0o600);
  } catch (error) {
    throw toStoreError(error, file, 'creating the file');
  }
  let db: SqliteDatabase | undefined;
  try {
    db = new Database(file, { timeout: busyTimeoutMs });
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    const check = db.pragma('quick_check(1)', { simple: true });
    if (check !== 'ok') throw new StoreError('STORE_CORRUPT', file, `database ${file} failed its integrity check (${String(check)}); it was left untouched: move it aside (or restore a backup) and the store starts empty`);
    return db;
  } catch (error) {
    db?.close();
    throw toStoreError(error, file, 'opening it');
  }
}

/** @since 1 */
export class Store {
  readonly file: string;
  readonly #db: SqliteDatabase;
  #closed = false;

  private constructor(file: string, db: SqliteDatabase) {
    this.file = file;
    this.#db = db;
  }

  /** Opens (creating if needed) and migrates the store. Throws StoreError naming the file. */
  static open(options: StoreOptions): Store {
    const file = path.resolve(options.file);
    const db = openDatabase(file, options.busyTimeoutMs ?? 5_000);
    try {
      migrate(db, options.migrations, file);
    } catch (error) {
      db.close();
      throw toStoreError(error, file, 'migrating it');
    }
    return new Store(file, db);
  }

  #live(): SqliteDatabase {
    if (this.#closed) throw new StoreError('STORE_CLOSED', this.file, `database ${this.file} was closed`);
    return this.#db;
  }

  /** Reads with a consistent snapshot. */
  read<T>(doing: string, fn: (db: SqliteDatabase) => T): T {
    const db = this.#live();
    try {
      return db.transaction(fn).deferred(db);
    } catch (error) {
      throw toStoreError(error, this.file, doing);
    }
  }

  /** One atomic write: all of `fn`'s changes commit together, or none do. */
  write<T>(doing: string, fn: (db: SqliteDatabase) => T): T {
    const db = this.#live();
    try {
      return db.transaction(fn).immediate(db);
    } catch (error) {
      throw toStoreError(error, this.file, doing);
    }
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#db.close();
  }
}
