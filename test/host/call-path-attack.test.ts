// Attacks on the faster call path (lazy call signal, context classes, batching writer, the host's
// sync fast path): each test states the behaviour the code had before that change.
import { Writable } from 'node:stream';
import { CancellationTokenSource, RequestType, createMessageConnection } from 'vscode-jsonrpc/node';
import { afterEach, describe, expect, it } from 'vitest';
import { NdjsonMessageWriter, ProtocolErrorCodes, createLinkedPair, createStreamTransport } from '../../protocol/index.js';
import type { PluginHost } from '../../kernel/host/index.js';
import { definePlugin } from '../../sdk/plugin-api.js';
import { signalFor } from '../../sdk/serve/call-signal.js';
import { createPluginTestHarness } from '../../sdk/testing/index.js';
import { fixture, testHost, waitFor } from './helpers.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const reasonOf = (s: AbortSignal): string => (s.reason instanceof Error ? s.reason.message : String(s.reason));
const text = (r: { content: Array<{ type: string; text?: string }> }): string => r.content.map((b) => b.text ?? '').join('');

describe('SDK: the call signal as a handler sees it (in process)', () => {
  it('a handler that reads ctx.signal only after the cancel arrived sees it aborted ("cancelled")', async () => {
    const seen: string[] = [];
    const h = await createPluginTestHarness(definePlugin({
      id: 'p', version: '1.0.0',
      tools: [{ name: 'late', description: 'x', inputSchema: {}, handler: async (_p, ctx) => {
        await sleep(150);
        seen.push(ctx.signal.aborted ? `aborted:${reasonOf(ctx.signal)}` : 'live');
        throw new Error('stopped');
      } }],
    }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(h.callTool('late', {}, { signal: controller.signal })).rejects.toMatchObject({ code: ProtocolErrorCodes.RequestCancelled });
    expect(seen).toEqual(['aborted:cancelled']);
    await h.close();
  });

  it('a handler that read ctx.signal before the cancel gets its abort event', async () => {
    const seen: string[] = [];
    const h = await createPluginTestHarness(definePlugin({
      id: 'p', version: '1.0.0',
      tools: [{ name: 'early', description: 'x', inputSchema: {}, handler: (_p, ctx) => new Promise((_r, reject) => {
        ctx.signal.addEventListener('abort', () => { seen.push(reasonOf(ctx.signal)); reject(new Error('x')); });
      }) }],
    }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    await expect(h.callTool('early', {}, { signal: controller.signal })).rejects.toMatchObject({ code: ProtocolErrorCodes.RequestCancelled });
    expect(seen).toEqual(['cancelled']);
    await h.close();
  });

  it('a handler that never reads ctx.signal and throws a plain error after the cancel answers RequestCancelled', async () => {
    const h = await createPluginTestHarness(definePlugin({
      id: 'p', version: '1.0.0',
      tools: [{ name: 'never', description: 'x', inputSchema: {}, handler: async () => { await sleep(100); throw new Error('plain'); } }],
    }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 10);
    await expect(h.callTool('never', {}, { signal: controller.signal })).rejects.toMatchObject({ code: ProtocolErrorCodes.RequestCancelled });
    // Not cancelled: the same plain error is a ToolFailed.
    await expect(h.callTool('never', {})).rejects.toMatchObject({ code: ProtocolErrorCodes.ToolFailed, message: 'plain' });
    await h.close();
  });

  it('shutdown aborts in-flight handlers, whether they read their signal before it or after', async () => {
    const seen: string[] = [];
    const h = await createPluginTestHarness(definePlugin({
      id: 'p', version: '1.0.0',
      tools: [
        { name: 'early', description: 'x', inputSchema: {}, handler: (_p, ctx) => new Promise(() => {
          ctx.signal.addEventListener('abort', () => seen.push(`early:${reasonOf(ctx.signal)}`));
        }) },
        { name: 'late', description: 'x', inputSchema: {}, handler: async (_p, ctx) => {
          await sleep(200);
          seen.push(`late:${ctx.signal.aborted ? reasonOf(ctx.signal) : 'live'}`);
          return 'x';
        } },
      ],
    }));
    void h.callTool('early', {}).catch(() => undefined);
    void h.callTool('late', {}).catch(() => undefined);
    await sleep(50);
    await h.connection.sendRequest('$/shutdown', {});
    await sleep(300);
    expect(seen.sort()).toEqual(['early:the plugin is shutting down', 'late:the plugin is shutting down']);
    await h.close();
  });

  it('a context kept after the answer: a later shutdown does not reach a signal read after it', async () => {
    let kept: { signal: AbortSignal } | undefined;
    const h = await createPluginTestHarness(definePlugin({
      id: 'p', version: '1.0.0',
      tools: [{ name: 'keep', description: 'x', inputSchema: {}, handler: (_p, ctx) => { kept = ctx; return 'ok'; } }],
    }));
    expect(text(await h.callTool('keep', {}))).toBe('ok');
    const read = kept!.signal;
    expect(read.aborted).toBe(false);
    await h.close();
    expect(read.aborted).toBe(false);
    expect(kept!.signal).toBe(read); // one signal per call
  });

  // The contract is "frozen at the answer": what the signal was when the handler returned, it stays.
  it('a cancel that arrives after the answer does not reach a signal first read after it', () => {
    const token = new CancellationTokenSource();
    const call = signalFor(token.token, new AbortController().signal);
    call.dispose(); // answered, nothing had cancelled it
    token.cancel(); // the kernel's $/cancelRequest, crossing the answer on the pipe
    expect(call.aborted).toBe(false);
    expect(call.signal.aborted).toBe(false);
  });

  it('a shutdown that came while the call ran reaches a signal first read after the answer', () => {
    const shutdown = new AbortController();
    const call = signalFor(new CancellationTokenSource().token, shutdown.signal);
    shutdown.abort(new Error('shutdown')); // in flight, handler never read its signal
    expect(call.aborted).toBe(true);
    call.dispose();
    // Before the change the signal existed from the start and was aborted by then.
    expect(call.signal.aborted).toBe(true);
    expect(reasonOf(call.signal)).toBe('the plugin is shutting down');
  });

  it('a handler may replace ctx.signal and ctx.workspace (the public types say they are plain properties)', async () => {
    const h = await createPluginTestHarness(definePlugin({
      id: 'p', version: '1.0.0',
      tools: [{ name: 'wrap', description: 'x', inputSchema: {}, handler: (_p, ctx) => {
        const own = new AbortController();
        ctx.signal = AbortSignal.any([ctx.signal, own.signal]);
        const base = ctx.workspace;
        ctx.workspace = { ...base, stat: base.stat };
        own.abort(new Error('mine'));
        return `${ctx.signal.aborted}:${reasonOf(ctx.signal)}:${typeof ctx.workspace.stat}`;
      } }],
    }));
    expect(text(await h.callTool('wrap', {}))).toBe('true:mine:function');
    await h.close();
  });
});

describe('writer: order, end, closing', () => {
  function recorder(): { stream: Writable; lines: () => string[] } {
    const chunks: string[] = [];
    const stream = new Writable({ write(chunk: Buffer, _e, done) { chunks.push(chunk.toString()); done(); } });
    return { stream, lines: () => chunks.join('').split('\n').filter(Boolean) };
  }

  it('a response between notifications of the same tick keeps its place; progress before it arrives before it', async () => {
    const { stream, lines } = recorder();
    const writer = new NdjsonMessageWriter(stream, { peer: 't', maxMessageBytes: 1 << 20 });
    const sent = [
      writer.write({ jsonrpc: '2.0', method: '$/progress', params: { token: 'a', value: 1 } } as never),
      writer.write({ jsonrpc: '2.0', method: '$/progress', params: { token: 'a', value: 2 } } as never),
      writer.write({ jsonrpc: '2.0', id: 7, result: 'done' } as never),
      writer.write({ jsonrpc: '2.0', method: '$/log', params: { message: 'after' } } as never),
    ];
    // Writes from a tick callback and from a microtask of the same turn: they leave in the order they were made.
    const called = ['$/progress', '$/progress', '#7', '$/log'];
    const late = (method: string) => (called.push(method), writer.write({ jsonrpc: '2.0', method } as never));
    process.nextTick(() => void late('tick'));
    await Promise.resolve().then(() => late('micro'));
    await Promise.all(sent);
    await sleep(10);
    expect(called).toHaveLength(6);
    expect(lines().map((l) => JSON.parse(l)).map((m) => m.method ?? `#${m.id}`)).toEqual(called);
  });

  it('$/cancelRequest of a request sent in the same tick goes after it', async () => {
    const { stream, lines } = recorder();
    const writer = new NdjsonMessageWriter(stream, { peer: 't', maxMessageBytes: 1 << 20 });
    const [, inbound] = createLinkedPair();
    const conn = createMessageConnection(inbound.reader, writer);
    conn.listen();
    const Work = new RequestType<object, string, unknown>('work');
    const sources = [1, 2, 3].map(() => new CancellationTokenSource());
    const calls = sources.map((s) => conn.sendRequest(Work, {}, s.token).catch(() => undefined));
    for (const s of sources) s.cancel();
    await sleep(20);
    const order = lines().map((l) => JSON.parse(l)).map((m) => (m.method === 'work' ? `req${m.id}` : `cancel${m.params.id}`));
    for (const id of [0, 1, 2]) expect(order.indexOf(`req${id}`)).toBeLessThan(order.indexOf(`cancel${id}`));
    expect(order.filter((o) => o.startsWith('cancel'))).toHaveLength(3);
    conn.dispose();
    void calls;
  });

  it('an oversized response of a batch becomes a MessageTooLarge error response in its place', async () => {
    const { stream, lines } = recorder();
    const writer = new NdjsonMessageWriter(stream, { peer: 't', maxMessageBytes: 300 });
    await Promise.all([
      writer.write({ jsonrpc: '2.0', method: 'first' } as never),
      writer.write({ jsonrpc: '2.0', id: 1, result: 'x'.repeat(1_000) } as never),
      writer.write({ jsonrpc: '2.0', method: 'last' } as never),
    ]);
    const msgs = lines().map((l) => JSON.parse(l));
    expect(msgs.map((m) => m.method ?? m.error?.code)).toEqual(['first', ProtocolErrorCodes.MessageTooLarge, 'last']);
    expect(msgs[1].id).toBe(1);
  });

  it('a stream destroyed between the first write and the flush rejects the rest, and later writes reject at once', async () => {
    const { stream } = recorder();
    const writer = new NdjsonMessageWriter(stream, { peer: 'plugin "x"', maxMessageBytes: 1 << 20 });
    const a = writer.write({ jsonrpc: '2.0', method: 'a' } as never).catch((e: Error) => e);
    const b = writer.write({ jsonrpc: '2.0', method: 'b' } as never).catch((e: Error) => e);
    stream.destroy();
    expect(await b).toBeInstanceOf(Error);
    void (await a);
    await expect(writer.write({ jsonrpc: '2.0', method: 'c' } as never)).rejects.toThrow('the RPC channel to plugin "x" is closed');
  });

  // Before the batching, every message was handed to the stream when written, so a transport
  // closed right after sending delivered it; close() goes through the writer's end() and its flush.
  it('transport.close() in the tick of a second message still sends it', async () => {
    const { stream, lines } = recorder();
    const transport = createStreamTransport(new Writable() as never, stream, { peer: 't' });
    const sent = [transport.writer.write({ jsonrpc: '2.0', method: 'a' } as never), transport.writer.write({ jsonrpc: '2.0', method: 'b' } as never)];
    transport.close();
    await Promise.allSettled(sent);
    expect(lines()).toHaveLength(2);
  });
});

describe('host: call path through spawned plugins', () => {
  let current: PluginHost | undefined;
  afterEach(async () => {
    await current?.stop();
    current = undefined;
  });
  const late = (extra: object = {}) => ({ id: 'late', module: fixture('reads-signal-late'), ...extra });

  it('unknown plugin, unknown tool, careless options: a rejected promise, never a synchronous throw, same codes and words', async () => {
    const { host } = testHost([late()]);
    current = host;
    await host.start();
    let unknown: Promise<unknown> | undefined;
    expect(() => (unknown = host.invokeTool('nope', 'x', {}))).not.toThrow();
    await expect(unknown).rejects.toMatchObject({ code: 'PLUGIN_NOT_FOUND', message: 'no plugin "nope" is configured' });
    await expect(host.invokeTool('late', 'zzz', {})).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND', message: 'plugin "late" serves no tool "zzz"' });
    // A JavaScript caller passing null options got a rejection from the async function before.
    let careless: Promise<unknown> | undefined;
    expect(() => (careless = host.invokeTool('late', 'echo', {}, null as never))).not.toThrow();
    await expect(careless).rejects.toBeInstanceOf(Error);
  });

  it('a lazy plugin: a known tool starts it and answers, an unknown one starts it and is TOOL_NOT_FOUND', async () => {
    const manifest = (await import('node:path')).join(import.meta.dirname, '../fixtures/plugins/lazy-echo/pincer-plugin.json');
    const { host } = testHost([{ id: 'lazy', module: fixture('echo'), manifest, lazy: true }]);
    current = host;
    await host.start();
    let p: Promise<unknown> | undefined;
    expect(() => (p = host.invokeTool('lazy', 'not-there', {}))).not.toThrow();
    await expect(p).rejects.toMatchObject({ code: 'TOOL_NOT_FOUND', message: 'plugin "lazy" serves no tool "not-there"' });
    expect(host.pluginStatus('lazy').state).toBe('ready');
    expect(text(await host.invokeTool('lazy', 'echo', { a: 1 }))).toBe('{"a":1}');
  });

  it('an abort before the request is sent settles CANCELLED at once and the plugin never runs the handler', async () => {
    const { host, logs } = testHost([late()]);
    current = host;
    await host.start();
    const started = Date.now();
    await expect(host.invokeTool('late', 'late', {}, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'CANCELLED' });
    expect(Date.now() - started).toBeLessThan(200);
    await sleep(500);
    expect(logs.some((l) => l.message.startsWith('saw late'))).toBe(false);
  });

  it.each([
    ['late', 'saw late aborted:cancelled'],
    ['early', 'saw early aborted:cancelled'],
  ])('kernel abort reaches the %s-reading handler, and CANCELLED comes once the plugin stopped', async (tool, line) => {
    const { host, logs } = testHost([late()]);
    current = host;
    await host.start();
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user')), 50);
    const started = Date.now();
    const error = await host.invokeTool('late', tool, {}, { signal: controller.signal }).catch((e: { code: string; message: string }) => e);
    expect(error).toMatchObject({ code: 'CANCELLED', message: `tool "${tool}" on plugin "late" was cancelled` });
    expect(Date.now() - started).toBeLessThan(5_000); // the plugin confirmed; no 10 s grace
    expect(logs.map((l) => l.message)).toContain(line);
    expect(host.pluginStatus('late').state).toBe('ready');
  });

  it('a handler that never reads its signal: CANCELLED after its own (plain) error, well within the grace', async () => {
    const { host } = testHost([late()]);
    current = host;
    await host.start();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const started = Date.now();
    await expect(host.invokeTool('late', 'never', {}, { signal: controller.signal })).rejects.toMatchObject({ code: 'CANCELLED' });
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(250); // waited for the plugin's answer
    expect(took).toBeLessThan(5_000);
  });

  it('progress reported in the tick of the answer all reaches onProgress before the call settles', async () => {
    const { host } = testHost([late()]);
    current = host;
    await host.start();
    const progress: unknown[] = [];
    let settledWith = -1;
    const r = await host.invokeTool('late', 'progress_burst', {}, { onProgress: (v) => progress.push(v) }).then((x) => ((settledWith = progress.length), x));
    expect(text(r)).toBe('burst done');
    expect(settledWith).toBe(3);
  });

  it('progress resets the idle deadline but maxCallMs still ends the call, with the same PLUGIN_TIMEOUT words', async () => {
    const { host } = testHost([late({ timeouts: { callMs: 200, maxCallMs: 800 } })]);
    current = host;
    await host.start();
    const started = Date.now();
    const error = await host.invokeTool('late', 'progress_forever', {}).then(() => ({ code: 'ANSWERED', message: '' }), (e: { code: string; message: string }) => e);
    const took = Date.now() - started;
    expect(error).toMatchObject({ code: 'PLUGIN_TIMEOUT' });
    expect(error.message).toMatch(/^tool "progress_forever" on plugin "late" did not answer within \d+ ms \(deadline 200 ms, cap 800 ms\)$/);
    expect(took).toBeGreaterThanOrEqual(750);
    expect(took).toBeLessThan(3_000);
    // Answers its liveness ping: kept.
    expect(text(await host.invokeTool('late', 'echo', { ok: 1 }))).toBe('{"ok":1}');
    expect(host.pluginStatus('late')).toMatchObject({ state: 'ready', restarts: 0 });
  });

  it('a crash mid-call rejects every call in flight with PLUGIN_CRASHED', async () => {
    const { host } = testHost([{ id: 'crash', module: fixture('crash-mid-call') }]);
    current = host;
    await host.start();
    const calls = [host.invokeTool('crash', 'boom', {}), ...Array.from({ length: 5 }, () => host.invokeTool('crash', 'boom', {}))];
    const outcomes = await Promise.allSettled(calls);
    for (const o of outcomes) expect(o).toMatchObject({ status: 'rejected', reason: { code: 'PLUGIN_CRASHED' } });
    expect(host.pluginStatus('crash').inflight).toBe(0);
  });

  it('shutdown aborts an in-flight handler (the plugin logs it) and the call settles PLUGIN_STOPPED', async () => {
    const { host, logs } = testHost([late()]);
    current = host;
    await host.start();
    const call = host.invokeTool('late', 'early', {}).catch((e: { code: string }) => e);
    await sleep(100);
    await host.stop();
    current = undefined;
    expect(await call).toMatchObject({ code: 'PLUGIN_STOPPED' });
    await waitFor(() => logs.some((l) => l.message === 'saw early aborted:the plugin is shutting down'), 3_000, 'the handler to see the shutdown');
  });

  it('a burst of 600 concurrent calls all come back, each with its own answer', async () => {
    const { host } = testHost([late()]);
    current = host;
    await host.start();
    const results = await Promise.all(Array.from({ length: 600 }, (_, i) => host.invokeTool('late', 'echo', { i })));
    results.forEach((r, i) => expect(text(r)).toBe(JSON.stringify({ i })));
  });
});
