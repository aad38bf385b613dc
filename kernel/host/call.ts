import { CancellationTokenSource, type MessageConnection, type RequestType } from 'vscode-jsonrpc/node';
import { ToolProgress, type ToolProgressValue } from '../../protocol/index.js';
import { isChannelClosed } from './channel-state.js';
import { KernelError, toKernelError } from './errors.js';

/** Per-call options; defaults come from the plugin's timeouts config. */
export interface DeadlineOptions {
  signal?: AbortSignal;
  timeoutMs: number;
  /** Progress resets the deadline, but never past this total. */
  maxTotalMs: number;
  /** Attach a progress token; each report calls this and extends the deadline. */
  onProgress?: (value: ToolProgressValue) => void;
  withProgress?: boolean;
  /**
   * After an abort, wait up to this long for the plugin's own answer to `$/cancelRequest`
   * before settling as CANCELLED, so the caller hears "cancelled" only once the plugin
   * stopped the work (a backend: killed the command). 0 (default): settle at once.
   */
  cancelGraceMs?: number;
}

/** How long a cancelled tool call or backend request waits for the plugin to confirm it stopped. */
export const CANCEL_GRACE_MS = 10_000;

/** Calls still waiting for an answer; a crash rejects them all with one typed error. */
export class InflightCalls {
  private readonly pending = new Set<(error: KernelError) => void>();
  add(reject: (error: KernelError) => void): () => void {
    this.pending.add(reject);
    return () => this.pending.delete(reject);
  }
  rejectAll(error: KernelError): void {
    const all = [...this.pending];
    this.pending.clear();
    for (const reject of all) reject(error);
  }
  get size(): number {
    return this.pending.size;
  }
}

let progressCounter = 0;

/**
 * Sends one request with a deadline, cancellation and progress. Always settles: with the
 * answer, a KernelError from the plugin's error, PLUGIN_TIMEOUT, CANCELLED, or whatever
 * error the in-flight registry is rejected with (a crash).
 */
export function requestWithDeadline<P extends object, R>(
  conn: MessageConnection,
  type: RequestType<P, R, unknown>,
  params: P,
  options: DeadlineOptions,
  ctx: { pluginId: string; what: string; inflight: InflightCalls },
): Promise<R> {
  return new Promise<R>((resolve, reject) => new PendingRequest<R>(conn, options, ctx, resolve, reject).send(type, params));
}

const onDeadline = (call: { timedOut(): void }): void => call.timedOut();
const onGraceOver = (call: { fail(error: KernelError): void; stopping?: KernelError }): void => call.fail(call.stopping!);

/**
 * One request in flight. A class with methods, not a dozen closures per call: a burst of
 * concurrent calls paid for those closures in garbage collections. The instance is the abort
 * listener (`handleEvent`) and the timers' argument.
 */
class PendingRequest<R> {
  private readonly started = Date.now();
  private readonly source = new CancellationTokenSource();
  private settled = false;
  private timer: NodeJS.Timeout | undefined;
  private progressSub: { dispose(): void } | undefined;
  private untrack: (() => void) | undefined;
  /** The error the call ends with once the plugin confirmed it stopped (or the grace ran out). */
  stopping: KernelError | undefined;

  constructor(
    private readonly conn: MessageConnection,
    private readonly options: DeadlineOptions,
    private readonly ctx: { pluginId: string; what: string; inflight: InflightCalls },
    private readonly resolve: (value: R) => void,
    private readonly reject: (error: KernelError) => void,
  ) {}

  send<P extends object>(type: RequestType<P, R, unknown>, params: P): void {
    const { signal } = this.options;
    this.untrack = this.ctx.inflight.add((error) => this.fail(error));
    if (signal?.aborted) return this.fail(this.cancelledError()); // nothing sent yet: nothing to wait for
    signal?.addEventListener('abort', this, { once: true });
    let answer: Promise<R>;
    try {
      let sent: object = params;
      if (this.options.onProgress || this.options.withProgress) {
        const token = `p${++progressCounter}`;
        this.progressSub = this.conn.onProgress(ToolProgress.type, token, (value) => this.onProgress(value));
        sent = Object.assign({}, params, { progressToken: token });
      }
      this.arm();
      answer = (this.conn.sendRequest as (t: unknown, p: unknown, k: unknown) => Promise<R>)(type, sent, this.source.token);
    } catch (error) {
      return this.fail(toKernelError(error, this.ctx.pluginId, this.ctx.what)); // a closed connection throws at once
    }
    answer.then(
      (result) => (this.stopping ? this.fail(this.stopping) : this.finish(result)),
      (error) => this.fail(this.stopping ?? toKernelError(error, this.ctx.pluginId, this.ctx.what)),
    );
  }

  /** The caller's signal aborted (EventListener interface). */
  handleEvent(): void {
    this.stopThen(this.cancelledError());
  }

  /** A plugin that let its deadline pass gets no grace: it already proved it does not answer. */
  timedOut(): void {
    this.cancel();
    const waited = Date.now() - this.started;
    const { timeoutMs, maxTotalMs } = this.options;
    this.fail(new KernelError('PLUGIN_TIMEOUT', `${this.ctx.what} on plugin "${this.ctx.pluginId}" did not answer within ${waited} ms (deadline ${timeoutMs} ms, cap ${maxTotalMs} ms)`, { pluginId: this.ctx.pluginId }));
  }

  fail(error: KernelError): void {
    if (this.cleanUp()) this.reject(error);
  }

  private finish(result: R): void {
    if (this.cleanUp()) this.resolve(result);
  }

  /** False when the call had already settled. */
  private cleanUp(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this);
    this.progressSub?.dispose();
    this.untrack?.();
    return true;
  }

  private onProgress(value: ToolProgressValue): void {
    if (!this.stopping) this.arm();
    this.options.onProgress?.(value);
  }

  private arm(): void {
    clearTimeout(this.timer);
    const left = Math.min(this.options.timeoutMs, this.options.maxTotalMs - (Date.now() - this.started));
    this.timer = setTimeout(onDeadline, Math.max(0, left), this);
  }

  /** $/cancelRequest over a closed channel throws inside the library (which logs it to the console). */
  private cancel(): void {
    if (!isChannelClosed(this.conn)) this.source.cancel();
  }

  private stopThen(error: KernelError): void {
    this.cancel(); // sends $/cancelRequest
    if (!this.options.cancelGraceMs) return this.fail(error);
    this.stopping = error;
    clearTimeout(this.timer);
    this.timer = setTimeout(onGraceOver, this.options.cancelGraceMs, this);
  }

  private cancelledError(): KernelError {
    return new KernelError('CANCELLED', `${this.ctx.what} on plugin "${this.ctx.pluginId}" was cancelled`, { pluginId: this.ctx.pluginId, cause: this.options.signal?.reason });
  }
}
