/**
 * One writer per journal directory: a lock file holding the writer's pid, created exclusively.
 * A lock whose process is gone (a SIGKILLed plugin) is stale and taken over; a live one refuses
 * the second writer, whose appends would interleave sequence numbers with the first's.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

export class JournalLockedError extends Error {
  override readonly name = 'JournalLockedError';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of `dir`; returns its release. */
export function lockJournalDir(dir: string): () => void {
  const file = path.join(dir, 'journal.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && alive(owner)) {
        throw new JournalLockedError(`${dir} is in use by process ${owner}; one journal has one writer (give each plugin its own directory)`);
      }
      rmSync(file, { force: true }); // stale: its writer is gone
    }
  }
  throw new JournalLockedError(`could not take the lock of ${dir}`);
}
