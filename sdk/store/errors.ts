/**
 * Typed failures of the embedded store. Every one names the database file, so an operator
 * knows which file is locked, damaged or out of room; none of them loses committed data.
 * @since 1
 */
export const STORE_ERROR_CODES = [
  'STORE_LOCKED', // another process holds the write lock past the busy timeout
  'STORE_CORRUPT', // the file is not a database, or fails its integrity check
  'STORE_FULL', // the disk (or the database's page limit) is full
  'STORE_READ_ONLY', // the file or its folder cannot be written
  'STORE_NEWER_SCHEMA', // written by a newer release: opening it would risk its data
  'STORE_MIGRATION_FAILED', // a migration step failed; the file keeps its previous schema
  'STORE_IO', // any other I/O failure
  'STORE_CLOSED', // used after close()
] as const;
export type StoreErrorCode = (typeof STORE_ERROR_CODES)[number];

export class StoreError extends Error {
  override readonly name = 'StoreError';
  constructor(
    readonly code: StoreErrorCode,
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** SQLite result codes (better-sqlite3's `SqliteError.code`) → our codes and words. */
const SQLITE_CODES: readonly [RegExp, StoreErrorCode, string][] = [
  [/^SQLITE_(BUSY|LOCKED)/, 'STORE_LOCKED', 'is locked by another process (a second kernel or a `pincer` command holding it); retry when it is done'],
  [/^SQLITE_(CORRUPT|NOTADB)/, 'STORE_CORRUPT', 'is damaged or not a database; it was left untouched: move it aside (or restore a backup) and the store starts empty'],
  [/^SQLITE_FULL/, 'STORE_FULL', 'is full (no space left on its disk); nothing of this write was kept, everything committed before it is intact'],
  [/^SQLITE_(READONLY|PERM|AUTH)/, 'STORE_READ_ONLY', 'cannot be written (check the permissions of the file and its folder)'],
  [/^SQLITE_CANTOPEN/, 'STORE_IO', 'cannot be opened (its folder is missing or not accessible)'],
];

/** An error from better-sqlite3 (or the file system) as a StoreError naming `file`. */
export function toStoreError(error: unknown, file: string, doing: string): StoreError {
  if (error instanceof StoreError) return error;
  const code = String((error as { code?: unknown })?.code ?? '');
  const detail = error instanceof Error ? error.message : String(error);
  for (const [pattern, storeCode, words] of SQLITE_CODES) {
    if (pattern.test(code)) return new StoreError(storeCode, file, `database ${file} ${words} (while ${doing}: ${detail})`, { cause: error });
  }
  if (code === 'ENOSPC') return new StoreError('STORE_FULL', file, `database ${file} is full (no space left on its disk) while ${doing}`, { cause: error });
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new StoreError('STORE_READ_ONLY', file, `database ${file} cannot be written while ${doing}: ${detail}`, { cause: error });
  return new StoreError('STORE_IO', file, `database ${file}: ${doing} failed: ${detail}`, { cause: error });
}
