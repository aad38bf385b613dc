/**
 * Bounds how many of one plugin's workspace requests the kernel serves at once: a plugin that
 * fires thousands of `workspace/exec` requests gets them served a few at a time, and beyond a
 * queue limit refused, instead of starting thousands of commands on the host.
 */
export const DEFAULT_WORKSPACE_CONCURRENCY = Object.freeze({ running: 16, queued: 256 });

export class RequestLimit {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly maxRunning: number = DEFAULT_WORKSPACE_CONCURRENCY.running,
    private readonly maxQueued: number = DEFAULT_WORKSPACE_CONCURRENCY.queued,
  ) {}

  /** Resolves with a release function once a slot is free, or undefined when the queue is full or `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<(() => void) | undefined> {
    if (this.running < this.maxRunning) return Promise.resolve(this.slot());
    if (this.waiting.length >= this.maxQueued || signal.aborted) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const wake = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(this.slot());
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(wake);
        if (at >= 0) this.waiting.splice(at, 1);
        resolve(undefined);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(wake);
    });
  }

  private slot(): () => void {
    this.running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.waiting.shift()?.();
    };
  }

  get size(): { running: number; queued: number } {
    return { running: this.running, queued: this.waiting.length };
  }
}
