import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import { describe, expect, it } from 'vitest';
import { signalFor } from '../../sdk/serve/call-signal.js';

const reasonOf = (signal: AbortSignal): string => (signal.reason as Error).message;

describe("a served request's call signal (built when first read)", () => {
  it('reports a cancellation through `aborted` before anyone built the signal, and builds it already aborted', () => {
    const token = new CancellationTokenSource();
    const call = signalFor(token.token, new AbortController().signal);
    expect(call.aborted).toBe(false);
    token.cancel();
    expect(call.aborted).toBe(true);
    expect(call.signal.aborted).toBe(true);
    expect(reasonOf(call.signal)).toBe('cancelled');
  });

  it('aborts a signal already read when the kernel cancels, and when the plugin shuts down', () => {
    const shutdown = new AbortController();
    const cancelled = new CancellationTokenSource();
    const byCancel = signalFor(cancelled.token, shutdown.signal);
    const byShutdown = signalFor(new CancellationTokenSource().token, shutdown.signal);
    const [a, b] = [byCancel.signal, byShutdown.signal];
    cancelled.cancel();
    expect(a.aborted).toBe(true);
    expect(reasonOf(a)).toBe('cancelled');
    expect(b.aborted).toBe(false);
    shutdown.abort(new Error('shutdown'));
    expect(b.aborted).toBe(true);
    expect(reasonOf(b)).toBe('the plugin is shutting down');
    expect(reasonOf(a)).toBe('cancelled'); // the first reason stays
  });

  it('a signal first read after shutdown is aborted; an unread one answers `aborted` from the shutdown', () => {
    const shutdown = new AbortController();
    const call = signalFor(new CancellationTokenSource().token, shutdown.signal);
    shutdown.abort(new Error('shutdown'));
    expect(call.aborted).toBe(true);
    expect(reasonOf(call.signal)).toBe('the plugin is shutting down');
  });

  it('after dispose, neither a shutdown nor the token reaches the signal any more', () => {
    const shutdown = new AbortController();
    const token = new CancellationTokenSource();
    const call = signalFor(token.token, shutdown.signal);
    const signal = call.signal;
    call.dispose();
    shutdown.abort(new Error('shutdown'));
    token.cancel();
    expect(signal.aborted).toBe(false);
    // Read for the first time after the answer (a background task kept its context): never aborted by a later shutdown.
    const late = signalFor(new CancellationTokenSource().token, shutdown.signal);
    late.dispose();
    expect(late.signal.aborted).toBe(false);
  });
});
