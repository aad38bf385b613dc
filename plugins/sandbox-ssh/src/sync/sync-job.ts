import { SandboxError } from '../../../../sdk/sandbox/errors.js';
import type { SyncProgress } from './sync-target.js';

/** A waiter's time ran out while the sync goes on in the background. */
export class SyncStillRunning extends Error {
  override readonly name = 'SyncStillRunning';
  constructor(readonly progress: SyncProgress | undefined) {
    super('the sync is still running');
  }
}

/**
 * One running sync of a copy, shared by everyone who needs it. Each caller waits with its
 * own signal and time budget: a caller whose budget runs out leaves it running in the
 * background (it comes back with its next call); a caller that gives up (its signal fires)
 * stops it for real once nobody else waits for it.
 */
export class SyncJob<T> {
  readonly done: Promise<T>;
  progress: SyncProgress | undefined;
  private readonly controller = new AbortController();
  private waiters = 0;

  constructor(work: (signal: AbortSignal, progress: (p: SyncProgress) => void) => Promise<T>) {
    this.done = work(this.controller.signal, (p) => { this.progress = p; });
    this.done.catch(() => undefined); // settled by waiters; never an unhandled rejection
  }

  cancel(reason: string): void {
    this.controller.abort(new Error(reason));
  }

  /** The job's outcome; CANCELLED when `signal` fires, SyncStillRunning after `budgetMs`. */
  wait(signal?: AbortSignal, budgetMs?: number): Promise<T> {
    if (signal?.aborted) return Promise.reject(new SandboxError('CANCELLED', 'Sync cancelled before it was waited for', { cause: signal.reason }));
    this.waiters++;
    return new Promise<T>((resolve, reject) => {
      let left = false;
      const leave = (settle: () => void) => {
        if (left) return;
        left = true;
        this.waiters--;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        settle();
      };
      const onAbort = () => leave(() => {
        if (this.waiters === 0) this.cancel('every caller gave up');
        reject(new SandboxError('CANCELLED', 'Sync cancelled: the caller gave up', { cause: signal?.reason }));
      });
      const timer = budgetMs === undefined ? undefined : setTimeout(() => leave(() => reject(new SyncStillRunning(this.progress))), budgetMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.done.then((v) => leave(() => resolve(v)), (e: unknown) => leave(() => reject(e)));
    });
  }
}
