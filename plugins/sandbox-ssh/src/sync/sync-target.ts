import type { SshConnection } from '../connection.js';
import type { SshSyncSettings } from '../settings.js';
import type { CopyState } from './copy-state.js';
import type { ExcludeFilter } from './excludes.js';

/** One host directory and its remote copy, as the push and the pull see them. */
export interface SyncTarget {
  connection: SshConnection;
  /** Host directory (canonical). */
  hostDir: string;
  /** Remote copy directory (holds `meta` and `tree`). */
  copyDir: string;
  /** Remote directory the host directory is mirrored in. */
  treeDir: string;
  state: CopyState;
  settings: SshSyncSettings;
  /** The copy is read-only (`ro`/`none`): the host always wins and nothing comes back. */
  readOnly: boolean;
  /** Paths the host always wins for and that never come back (read-only skills inside a writable copy). */
  hostOwns(path: string): boolean;
  /** A fresh filter for one sync (with `sync.gitignore`, what git ignores changes all the time). */
  filter(): ExcludeFilter;
  /** Upload regular files with more than one hard link too (the plugin's `allowHardLinks`); held back otherwise. */
  allowHardLinks: boolean;
  /** The host files the last push held back for their hard links: never uploaded, refused as HARD_LINKED. */
  hardLinked: Set<string>;
  /** Persists the state (after every confirmed batch: a crash loses at most one). */
  save(): void;
}

/** How far a sync has come; sent as progress while it runs. */
export interface SyncProgress {
  phase: 'push' | 'pull';
  entriesDone: number;
  entriesTotal: number;
  bytesDone: number;
  bytesTotal: number;
}

export type ProgressSink = (progress: SyncProgress) => void;
