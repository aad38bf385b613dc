/**
 * `sdk/store`: the embedded database plugins keep durable state in (jobs, run history, the
 * tasks ledger). One SQLite file under the plugin's data dir; see store.ts for the guarantees.
 */
export { Store } from './store.js';
export type { StoreOptions, SqliteDatabase } from './store.js';
export { StoreError, STORE_ERROR_CODES, toStoreError } from './errors.js';
export type { StoreErrorCode } from './errors.js';
export type { Migration } from './migrate.js';
