/**
 * Fuzzing the SDK's side of the wire: a hostile kernel (hostile-kernel.ts) drives the built echo
 * fixture, an ordinary serve() plugin, with fast-check-generated frames: lines that are no
 * JSON-RPC, unknown methods, known methods with params of the wrong types, ids of odd types,
 * responses for ids it never sent, garbage answers to the plugin's own workspace requests,
 * requests before the handshake and after $/shutdown, a message over the size cap. The plugin
 * never dies of an uncaught exception: it keeps answering each probe with its own tag, answers
 * early requests with PluginNotReady, and after $/shutdown leaves as docs/protocol.md says (it
 * kills its own process group, itself last).
 */
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { garbageFrame, survivableFrames, type Frame } from './frames.js';
import { HANDSHAKE, startHostileKernel, type HostileKernel } from './hostile-kernel.js';

const ECHO = path.resolve(import.meta.dirname, '../../dist/test/fixtures/plugins/echo.js');
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS) || undefined;
/** What Node prints when a process dies of an uncaught exception or an unhandled rejection. */
const DIED_OF_AN_EXCEPTION = /\nNode\.js v\d+|Uncaught|UnhandledPromiseRejection/;

type Answer = { result?: any; error?: { code?: number; message?: string } } | 'no answer';
const answerTo = (id: unknown, body: unknown) => `${JSON.stringify({ jsonrpc: '2.0', id, ...(body as object) })}\n`;

async function ready(): Promise<HostileKernel> {
  const kernel = startHostileKernel(ECHO, 'echo');
  const hs = (await kernel.request('handshake', HANDSHAKE, 20_000)) as Answer;
  expect(hs !== 'no answer' && hs.result?.plugin?.id).toBe('echo');
  return kernel;
}

function withGarbage(frames: Frame[][], garbage: Frame | null, at: number): Frame[] {
  const all = frames.flat();
  if (garbage) all.splice(at % (all.length + 1), 0, garbage);
  return all;
}

describe('a hostile kernel against an SDK plugin', () => {
  let kernel: HostileKernel | undefined;
  afterAll(() => kernel?.kill());

  it('keeps serving, each probe answered with its own tag, whatever else the kernel writes', async () => {
    let n = 0;
    // A plugin's workspace request gets a generated answer: a result of any shape, or an odd error.
    const pluginAnswer = fc.oneof(fc.jsonValue({ maxDepth: 3 }).map((result) => ({ result })), fc.jsonValue({ maxDepth: 2 }).map((error) => ({ error })), fc.constant({}));
    await fc.assert(
      fc.asyncProperty(fc.array(survivableFrames('kernel', { exclude: ['$/shutdown'] }), { maxLength: 10 }), fc.option(garbageFrame, { freq: 2 }), fc.nat(), pluginAnswer, async (frames, garbage, at, answer) => {
        if (!kernel || kernel.child.exitCode !== null || kernel.child.signalCode !== null) kernel = await ready();
        kernel.write(withGarbage(frames, garbage, at));
        kernel.answerPluginRequest = (msg) => answerTo(msg.id, answer);
        const tag = `probe-${n++}`;
        const echo = (await kernel.request('tool/invoke', { name: 'echo', arguments: { tag } })) as Answer;
        expect(echo !== 'no answer' && echo.result?.content?.[0]?.text).toBe(JSON.stringify({ tag }));
        // The read tool asks us for the file: our garbage answer must end its call with an answer too.
        const read = await kernel.request('tool/invoke', { name: 'read', arguments: { path: 'a.txt' }, context: { sessionKey: 's' } });
        expect(read).not.toBe('no answer');
        expect(kernel.child.exitCode).toBeNull();
        expect(kernel.stderr()).not.toMatch(DIED_OF_AN_EXCEPTION);
      }),
      { numRuns: FUZZ_RUNS ?? 80 },
    );
  }, 120_000);

  it('answers params of the wrong shape, null included, with InvalidParams and unknown methods with MethodNotFound', async () => {
    kernel ??= await ready();
    for (const [method, params] of [['tool/invoke', null], ['tool/invoke', { name: 5 }], ['tool/invoke', 'text'], ['sandbox/release', null], ['hook/beforeToolCall', { x: 1 }]] as const) {
      const answer = (await kernel.request(method, params)) as Answer;
      expect(answer !== 'no answer' && answer.error?.code, `${method} ${JSON.stringify(params)}`).toBe(-32602);
    }
    const unknown = (await kernel.request('nope/x', {})) as Answer;
    expect(unknown !== 'no answer' && unknown.error?.code).toBe(-32601);
  });

  it('drops a message over the size cap and a line of 9 MiB of garbage, and serves on', async () => {
    kernel ??= await ready();
    const big = 8 * 1024 * 1024 + 1;
    kernel.write([{ raw: `${JSON.stringify({ jsonrpc: '2.0', id: 'huge', method: 'tool/invoke', params: { name: 'echo', arguments: { pad: 'x'.repeat(big) } } })}\n` }, { raw: `${'y'.repeat(9 * 1024 * 1024)}\n` }]);
    const echo = (await kernel.request('tool/invoke', { name: 'echo', arguments: { tag: 'after-big' } }, 20_000)) as Answer;
    expect(echo !== 'no answer' && echo.result?.content?.[0]?.text).toBe(JSON.stringify({ tag: 'after-big' }));
    expect(kernel.child.exitCode).toBeNull();
  });

  it('answers before its handshake with PluginNotReady, handshakes after garbage, and leaves after $/shutdown whatever follows', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(survivableFrames('kernel', { exclude: ['$/shutdown', 'handshake'] }), { maxLength: 5 }),
        fc.option(garbageFrame),
        fc.array(survivableFrames('kernel'), { minLength: 1, maxLength: 8 }),
        async (before, garbage, after) => {
          const fresh = startHostileKernel(ECHO, 'echo');
          try {
            fresh.write(withGarbage(before, garbage, 0));
            const early = (await fresh.request('tool/invoke', { name: 'echo', arguments: {} }, 20_000)) as Answer;
            expect(early !== 'no answer' && early.error?.code).toBe(-32007);
            const hs = (await fresh.request('handshake', HANDSHAKE)) as Answer;
            expect(hs !== 'no answer' && hs.result?.protocolVersion).toBe(1);
            const bye = fresh.request('$/shutdown', {});
            fresh.write(after.flat()); // requests while it shuts down
            expect(((await bye) as Answer) !== 'no answer' && ((await bye) as { result: unknown }).result).toBeNull();
            fresh.close();
            // Its way out (docs/protocol.md, exit rules): it SIGKILLs its own process group, itself
            // last, so a clean exit ends by SIGKILL here (spawned in a group of its own, as the kernel does).
            expect(await fresh.exit(5_000)).toEqual({ code: null, signal: 'SIGKILL' });
            expect(fresh.stderr()).not.toMatch(DIED_OF_AN_EXCEPTION);
          } finally {
            fresh.kill();
          }
        },
      ),
      { numRuns: FUZZ_RUNS ? Math.ceil(FUZZ_RUNS / 5) : 10 },
    );
  }, 120_000);
});
