/**
 * What a multi-file patch records before its first change: per file the canonical target,
 * the content version it planned against, hashes of the bytes before and after (to tell
 * "ours" from a concurrent writer's when undoing), the directories it will create, and the
 * name a deleted or moved-away original is parked under until the patch is complete.
 */
export type JournalChange =
  | { op: 'add'; target: string; afterHash: string; createdDirs: string[] }
  | { op: 'update'; target: string; version?: string; beforeHash: string; afterHash: string }
  | { op: 'move'; target: string; version?: string; trash: string; newTarget: string; afterHash: string; createdDirs: string[] }
  | { op: 'delete'; target: string; version?: string; trash: string };

/** `prepared`: undo on recovery (all-old). `committed`: every change landed; finish by removing the parked originals (all-new). */
export type JournalState = 'prepared' | 'committed';

export interface JournalIntent {
  format: 1;
  session: string;
  /** Not stored in the intent: a `.committed` file beside it says so. */
  state: JournalState;
  createdAt: string;
  changes: JournalChange[];
  /** Original bytes (base64) of each updated file, by change index. */
  backups: Record<number, string>;
}

/** A file the undo had to leave as it found it, and why. */
export interface NotRestored {
  path: string;
  reason: string;
}
