/**
 * Append-only JSONL journals for plugins (the outbox channel, the local node's notifications):
 * durable appends with idempotency ids, rotation, crash recovery, and the file layout readers use.
 */
export { Journal, JournalWriteError } from './journal.js';
export type { JournalOptions, JournalRecord } from './journal.js';
export { JournalLockedError, lockJournalDir } from './lock.js';
export { activeFile, journalFiles, parseLines, rotatedFile, rotatedFiles } from './files.js';
export { privateDataDir } from './data-dir.js';
