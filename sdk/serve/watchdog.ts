/**
 * Exits the plugin when its kernel is gone, even if the pipe stays open (a grandchild may hold
 * the other end). Polls the parent pid and, when known, the kernel pid.
 */
export function startParentWatchdog(options: { kernelPid?: number; intervalMs?: number; onOrphaned: (why: string) => void }): () => void {
  const initialParent = process.ppid;
  const alive = (pid: number): boolean => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
  };
  const timer = setInterval(() => {
    if (process.ppid !== initialParent) options.onOrphaned(`parent ${initialParent} is gone (re-parented to ${process.ppid})`);
    else if (options.kernelPid !== undefined && !alive(options.kernelPid)) options.onOrphaned(`kernel ${options.kernelPid} is gone`);
  }, options.intervalMs ?? 500);
  timer.unref(); // the watchdog alone must not keep the plugin alive
  return () => clearInterval(timer);
}
