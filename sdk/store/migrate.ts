/**
 * Schema migrations by `PRAGMA user_version`: each step runs in its own transaction with the
 * version bump, so a crash or a failing step leaves the file at the last complete version.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { StoreError, toStoreError } from './errors.js';

/** One schema step. Versions start at 1 and have no gaps. @since 1 */
export interface Migration {
  version: number;
  description: string;
  up: string | ((db: BetterSqlite3.Database) => void);
}

export function checkMigrations(migrations: readonly Migration[], file: string): void {
  migrations.forEach((migration, i) => {
    if (migration.version !== i + 1) throw new StoreError('STORE_MIGRATION_FAILED', file, `migration ${i} of ${file} has version ${migration.version}; versions must run 1, 2, 3... without gaps`);
  });
}

/** Brings the database to the newest version; refuses one written by a newer release. */
export function migrate(db: BetterSqlite3.Database, migrations: readonly Migration[], file: string): number {
  checkMigrations(migrations, file);
  const current = db.pragma('user_version', { simple: true }) as number;
  const newest = migrations.length;
  if (current > newest) {
    throw new StoreError('STORE_NEWER_SCHEMA', file, `database ${file} has schema version ${current}, newer than this release knows (${newest}); upgrade Pincer instead of opening it with an older one`);
  }
  for (const migration of migrations.slice(current)) {
    try {
      db.transaction(() => {
        if (typeof migration.up === 'string') db.exec(migration.up);
        else migration.up(db);
        db.pragma(`user_version = ${migration.version}`);
      }).immediate();
    } catch (error) {
      const cause = toStoreError(error, file, `migrating to version ${migration.version} (${migration.description})`);
      if (cause.code !== 'STORE_IO') throw cause;
      throw new StoreError('STORE_MIGRATION_FAILED', file, `${cause.message}; the file keeps schema version ${migration.version - 1}`, { cause: error });
    }
  }
  return newest;
}
