/**
 * Last line of defence: when the kernel process exits for any reason, SIGKILL every plugin
 * process group still registered. (If the kernel is SIGKILLed, the plugins' own watchdogs exit.)
 */
const groups = new Set<number>();
let installed = false;

function killAll(): void {
  for (const pgid of groups) killGroup(pgid, 'SIGKILL');
  groups.clear();
}

/** Signals a whole process group; false when it no longer exists. */
export function killGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is gone
  }
}

export function registerProcessGroup(pgid: number): void {
  if (!installed) {
    process.on('exit', killAll);
    installed = true;
  }
  groups.add(pgid);
}

export function unregisterProcessGroup(pgid: number): void {
  groups.delete(pgid);
}

/** Groups currently registered (for tests and status). */
export function registeredProcessGroups(): number[] {
  return [...groups];
}
