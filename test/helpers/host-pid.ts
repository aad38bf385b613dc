import { readdirSync, readFileSync } from 'node:fs';

/**
 * Host pid of the `sleep <marker>` a command started. The command may run in its own PID
 * namespace (workspace-write), where the pid it prints means another process on the host;
 * a unique marker (e.g. `300.<pid>1`) finds the real one. Undefined while there is none.
 */
export function hostPidOfSleep(marker: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    try {
      if (/^\d+$/.test(entry) && readFileSync(`/proc/${entry}/cmdline`, 'utf8') === `sleep\0${marker}\0`) return Number(entry);
    } catch {
      // exited meanwhile
    }
  }
  return undefined;
}
