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
  return new Promise<R>((resolve, reject) => {
    const { signal } = options;
    const started = Date.now();
    const source = new CancellationTokenSource();
    // $/cancelRequest over a closed channel throws inside the library (which logs it to the console).
    const cancel = (): void => {
      if (!isChannelClosed(conn)) source.cancel();
    };
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let progressSub: { dispose(): void } | undefined;
    const finish = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      progressSub?.dispose();
      untrack();
      settle();
    };
    const fail = (error: KernelError): void => finish(() => reject(error));
    /** The error the call ends with once the plugin confirmed it stopped (or the grace ran out). */
    let stopping: KernelError | undefined;
    const stopThen = (error: KernelError): void => {
      cancel(); // sends $/cancelRequest
      if (!options.cancelGraceMs) return fail(error);
      stopping = error;
      clearTimeout(timer);
      timer = setTimeout(() => fail(error), options.cancelGraceMs);
    };
    // A plugin that let its deadline pass gets no grace: it already proved it does not answer.
    const onTimeout = (): void => {
      cancel();
      const waited = Date.now() - started;
      fail(new KernelError('PLUGIN_TIMEOUT', `${ctx.what} on plugin "${ctx.pluginId}" did not answer within ${waited} ms (deadline ${options.timeoutMs} ms, cap ${options.maxTotalMs} ms)`, { pluginId: ctx.pluginId }));
    };
    const arm = (): void => {
      clearTimeout(timer);
      const left = Math.min(options.timeoutMs, options.maxTotalMs - (Date.now() - started));
      timer = setTimeout(onTimeout, Math.max(0, left));
    };
    const cancelledError = (): KernelError => new KernelError('CANCELLED', `${ctx.what} on plugin "${ctx.pluginId}" was cancelled`, { pluginId: ctx.pluginId, cause: signal?.reason });
    function onAbort(): void {
      stopThen(cancelledError());
    }
    const untrack = ctx.inflight.add(fail);
    if (signal?.aborted) return fail(cancelledError()); // nothing sent yet: nothing to wait for
    signal?.addEventListener('abort', onAbort, { once: true });
    let answer: Promise<R>;
    try {
      let sent = params;
      if (options.onProgress || options.withProgress) {
        const token = `p${++progressCounter}`;
        progressSub = conn.onProgress(ToolProgress.type, token, (value) => {
          if (!stopping) arm();
          options.onProgress?.(value);
        });
        sent = { ...params, progressToken: token };
      }
      arm();
      answer = (conn.sendRequest as (t: unknown, p: unknown, k: unknown) => Promise<R>)(type, sent, source.token);
    } catch (error) {
      return fail(toKernelError(error, ctx.pluginId, ctx.what)); // a closed connection throws at once
    }
    answer.then(
      (result) => (stopping ? fail(stopping) : finish(() => resolve(result))),
      (error) => (stopping ? fail(stopping) : fail(toKernelError(error, ctx.pluginId, ctx.what))),
    );
  });
}
