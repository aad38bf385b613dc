import type { CancellationToken, Disposable } from 'vscode-jsonrpc/node';

/**
 * The cancellation of one request a plugin serves: the kernel's `$/cancelRequest` (its token)
 * or the plugin's shutdown.
 *
 * Why lazy: most handlers never look at their signal, and building an AbortSignal (an
 * EventTarget) plus a listener on the shutdown signal per request was about a tenth of an echo
 * call's CPU in the plugin. The AbortController is built the first time `signal` is read, already
 * aborted if the request was cancelled by then; `aborted` answers from the token and the
 * shutdown signal without building anything.
 */
export interface CallSignal {
  /** Aborted when the kernel cancels the request or the plugin shuts down. */
  readonly signal: AbortSignal;
  readonly aborted: boolean;
  /** The request is answered: later cancellations and shutdown no longer reach `signal`. */
  dispose(): void;
}

const CANCELLED = 'cancelled';
const SHUTTING_DOWN = 'the plugin is shutting down';

/** One shutdown listener per plugin, fanning out to the calls whose signal was read. */
const liveByShutdown = new WeakMap<AbortSignal, Set<LazyCallSignal>>();

function liveCalls(shutdown: AbortSignal): Set<LazyCallSignal> {
  let live = liveByShutdown.get(shutdown);
  if (!live) {
    const calls = new Set<LazyCallSignal>();
    live = calls;
    liveByShutdown.set(shutdown, calls);
    shutdown.addEventListener(
      'abort',
      () => {
        for (const call of [...calls]) call.abort(SHUTTING_DOWN);
        calls.clear();
      },
      { once: true },
    );
  }
  return live;
}

class LazyCallSignal implements CallSignal {
  private controller: AbortController | undefined;
  private subscription: Disposable | undefined;
  private disposed = false;
  /** Why the call was stopped when it was answered: a signal first read after that is as it was then. */
  private frozen: string | undefined;
  /** A shutdown older than the request never reached a signal read after the answer. */
  private readonly shutdownEarlier: boolean;

  constructor(
    private readonly token: CancellationToken,
    private readonly shutdown: AbortSignal,
  ) {
    this.shutdownEarlier = shutdown.aborted;
  }

  get signal(): AbortSignal {
    if (this.controller) return this.controller.signal;
    const controller = new AbortController();
    this.controller = controller;
    const reason = this.reasonNow();
    if (reason) controller.abort(new Error(reason));
    else if (!this.disposed) {
      this.subscription = this.token.onCancellationRequested(() => this.abort(CANCELLED));
      liveCalls(this.shutdown).add(this);
    }
    return controller.signal;
  }

  get aborted(): boolean {
    return this.controller ? this.controller.signal.aborted : this.reasonNow() !== undefined;
  }

  /** Only once the signal exists: before, `reasonNow` answers for it. */
  abort(reason: string): void {
    if (this.controller && !this.controller.signal.aborted) this.controller.abort(new Error(reason));
  }

  dispose(): void {
    // Frozen now, as an AbortSignal built at the start would have been: a cancel crossing the
    // answer must not abort it later, a shutdown that came while the call ran must.
    if (!this.controller && !this.disposed) this.frozen = this.token.isCancellationRequested ? CANCELLED : this.shutdown.aborted && !this.shutdownEarlier ? SHUTTING_DOWN : undefined;
    this.disposed = true;
    this.subscription?.dispose();
    this.subscription = undefined;
    if (this.controller) liveByShutdown.get(this.shutdown)?.delete(this);
  }

  /**
   * The request's token first, as its own cancellation is the likelier one. After the answer,
   * what it was then: later cancels and shutdowns no longer count (as with listeners removed at dispose).
   */
  private reasonNow(): string | undefined {
    if (this.disposed) return this.frozen;
    if (this.token.isCancellationRequested) return CANCELLED;
    return this.shutdown.aborted ? SHUTTING_DOWN : undefined;
  }
}

/** The cancellation of a request served under `token`, until the plugin's `shutdown`. */
export function signalFor(token: CancellationToken, shutdown: AbortSignal): CallSignal {
  return new LazyCallSignal(token, shutdown);
}
