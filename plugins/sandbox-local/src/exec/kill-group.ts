/**
 * Process-group termination. Commands are spawned detached, so the shell leads a
 * new process group whose id is its pid; signalling `-pid` reaches every process
 * the command started (pipelines, `&` children), not just the shell.
 */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false; // ESRCH: the group is already gone
  }
}

/** Groups still alive, killed if the backend process itself exits first. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

export function trackGroup(pgid: number): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    // 'exit' handlers must be synchronous; process.kill is.
    process.once('exit', () => {
      for (const group of liveGroups) signalGroup(group, 'SIGKILL');
    });
  }
  liveGroups.add(pgid);
  return () => liveGroups.delete(pgid);
}

/** SIGTERM now, SIGKILL after `graceMs` unless `exited` settles first. */
export function terminateGroup(pgid: number, graceMs: number, exited: Promise<unknown>): void {
  signalGroup(pgid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(pgid, 'SIGKILL'), graceMs);
  timer.unref();
  void exited.finally(() => clearTimeout(timer));
}
