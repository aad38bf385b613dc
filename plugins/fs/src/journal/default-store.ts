import { JournalStore } from './store.js';

let store: JournalStore | undefined;

/** The process's journal store, in the plugin's data directory; resolved on first use, so a bad directory fails that use, not the start. */
export function defaultJournalStore(): JournalStore {
  store ??= JournalStore.fromEnv();
  return store;
}
