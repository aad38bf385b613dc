/**
 * Process-group signals. Commands are spawned detached, so the shell leads a new process
 * group whose id is its pid; signalling `-pid` reaches every process the command started
 * (pipelines, `&` children), not just the shell.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is already gone
  }
}

/** SIGTERM now, SIGKILL after `graceMs` unless `exited` settles first. */
export function terminateGroup(pgid: number, graceMs: number, exited: Promise<unknown>): void {
  signalGroup(pgid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs);
  timer.unref();
  void exited.finally(() => clearTimeout(timer));
}
