/**
 * Fuzzing the kernel's side of the wire: a hostile plugin (writes-any-frame, no SDK) writes
 * fast-check-generated frame sequences on fd 3 in answer to one call: unknown methods, params
 * of the wrong types, ids of odd types, responses for ids never sent and of the wrong shape for
 * the call in flight, deep nesting, split writes, messages over the size cap, and in some runs a
 * line that is no JSON-RPC at all (a framing error: killed and restarted). Whatever it writes,
 * the kernel does not crash, every error names the plugin, the call settles, and another plugin
 * keeps serving. Then the kernel stops while the plugin sends requests.
 */
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAMED_ECHO } from '../../bench/lib/chaos.js';
import { processesWith } from '../../bench/lib/process-table.js';
import { createKernel, type CallResult, type HostLogRecord, type Kernel } from '../../kernel/index.js';
import { tempDir } from '../helpers/temp-dir.js';
import { garbageFrame, survivableFrames, type Frame } from './frames.js';

const HOSTILE = path.resolve(import.meta.dirname, '../../dist/test/fixtures/plugins/writes-any-frame.js');
const CAP = 64 * 1024; // the hostile plugin's maxMessageBytes: oversized frames stay cheap
type HostileFrame = Frame | { big: number; as: 'response' | 'notification' };
/** FUZZ_RUNS=2000 fuzzes deeper by hand; CI keeps the suite fast. */
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS) || undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const textOf = (r: CallResult) => r.content.map((c) => ('text' in c ? c.text : '')).join('');

const uncaught: unknown[] = [];
const record = (error: unknown) => {
  if (process.env.FUZZ_DEBUG) console.error('UNCAUGHT', (error as Error)?.stack);
  uncaught.push(error);
};
process.on('uncaughtException', record);
process.on('unhandledRejection', record);
afterAll(() => {
  process.off('uncaughtException', record);
  process.off('unhandledRejection', record);
});

const oversized = fc.record({ big: fc.integer({ min: CAP + 1, max: CAP * 2 }), as: fc.constantFrom<'response' | 'notification'>('response', 'notification') });
/** One run: survivable frames, sometimes an oversized one, sometimes one fatal line among them; how the call ends. */
const run = fc
  .record({
    frames: fc.array(survivableFrames('plugin', { callId: true }), { maxLength: 8 }),
    big: fc.option(oversized, { freq: 4 }),
    fatal: fc.option(garbageFrame, { freq: 3 }),
    at: fc.nat(),
    end: fc.constantFrom<'answer' | 'silent' | 'exit'>('answer', 'answer', 'answer', 'answer', 'answer', 'exit', 'silent'),
  })
  .map(({ frames, big, fatal, at, end }) => {
    const all: HostileFrame[] = frames.flat();
    if (big) all.splice(at % (all.length + 1), 0, big);
    if (fatal) all.splice((at >> 3) % (all.length + 1), 0, fatal);
    return { frames: all, end };
  });

describe('a hostile plugin against the kernel', () => {
  const cwd = tempDir('pincer-fuzz-kernel-');
  process.env.PINCER_STATE_DIR = tempDir('pincer-fuzz-state-');
  const marker = `pincer-fuzz-kernel-${process.pid}`;
  const logs: HostLogRecord[] = [];
  let kernel: Kernel;
  const hostile = () => kernel.plugins().find((p) => p.id === 'hostile')!;

  beforeAll(async () => {
    kernel = createKernel(
      {
        plugins: [
          { id: 'hostile', module: HOSTILE, args: [marker], maxMessageBytes: CAP, timeouts: { callMs: 400, pingMs: 500, shutdownGraceMs: 300, killGraceMs: 300 } },
          { id: 'steady', module: NAMED_ECHO, args: [marker] },
        ],
        agents: { list: [{ id: 'main', default: true, workspace: cwd }] },
      },
      // Framing errors restart the plugin: an unlimited budget with a short backoff keeps every run's plugin alive.
      { logger: (r) => void logs.push(r), cwd, restart: { maxCrashes: 1_000_000, windowMs: 1_000, backoffBaseMs: 10, backoffMaxMs: 50 } },
    );
    await kernel.start();
  });

  it('never crashes, names the plugin in every error, settles the call and keeps the other plugin serving', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(run, async ({ frames, end }) => {
        for (let i = 0; hostile().state !== 'ready'; i++) {
          if (i > 400) throw new Error(`hostile did not come back: ${JSON.stringify(hostile())}`);
          await sleep(25);
        }
        const from = logs.length;
        const crashes = uncaught.length;
        const tools = kernel.assembleTools({ agentId: 'main' });
        const settled = await Promise.race([tools.execute('emit', { frames, end }), sleep(10_000).then(() => 'hung' as const)]);
        expect(settled).not.toBe('hung');
        const tag = `after-${n++}`;
        expect(JSON.parse(textOf(await tools.execute('steady_echo', { tag })))).toEqual({ tag });
        for (const r of logs.slice(from).filter((r) => r.level === 'error')) expect(r.source === 'plugin:hostile' || r.message.includes('plugin "hostile"'), r.message).toBe(true);
        const last = hostile().lastError;
        if (last) expect(last.message).toContain('plugin "hostile"');
        if (settled !== 'hung' && settled.isError && (settled.cause as { pluginId?: string } | undefined)?.pluginId) expect((settled.cause as { pluginId: string }).pluginId).toBe('hostile');
        expect(uncaught.slice(crashes)).toEqual([]);
      }),
      { numRuns: FUZZ_RUNS ?? 60 },
    );
    // The runs did reach the kernel's failure paths, not only the happy one.
    expect(logs.some((r) => r.level === 'error' && /not a JSON-RPC message/.test(r.message))).toBe(true);
    expect(logs.some((r) => /over the cap of 65536 bytes/.test(r.message))).toBe(true);
  }, 120_000);

  it('survives a plugin\'s $/cancelRequest without an id (it crashed the kernel), logs it naming the plugin and keeps the plugin up', async () => {
    while (hostile().state !== 'ready') await sleep(25);
    const { restarts } = hostile();
    const from = logs.length;
    const frames = [{ raw: '{"jsonrpc":"2.0","method":"$/cancelRequest","params":{}}\n' }, { raw: '{"jsonrpc":"2.0","method":"$/cancelRequest"}\n' }];
    const result = await kernel.assembleTools({ agentId: 'main' }).execute('emit', { frames, end: 'answer' });
    expect(textOf(result)).toBe('survived');
    expect(logs.slice(from).filter((r) => r.message.includes('plugin "hostile" sent a JSON-RPC message that was dropped (a $/cancelRequest without a string or number id)'))).toHaveLength(2);
    expect(hostile()).toMatchObject({ state: 'ready', restarts });
    expect(uncaught).toEqual([]);
  });

  it('stops while the plugin answers $/shutdown with a flood of requests, leaving no process', async () => {
    while (hostile().state !== 'ready') await sleep(25);
    const flood = fc.sample(survivableFrames('plugin'), { seed: 17, numRuns: 300 }).flat();
    const requests = Array.from({ length: 200 }, (_, i) => ({ raw: `${JSON.stringify({ jsonrpc: '2.0', id: `w${i}`, method: 'workspace/read', params: { path: 'nothing.txt' } })}\n` }));
    const inFlight = kernel.assembleTools({ agentId: 'main' }).execute('emit', { frames: requests, end: 'silent', onShutdown: [...flood, ...requests] });
    await sleep(50);
    const stopped = kernel.stop();
    expect(await Promise.race([stopped.then(() => 'stopped'), sleep(10_000).then(() => 'stuck')])).toBe('stopped');
    expect((await inFlight).isError).toBe(true);
    expect(processesWith(marker)).toEqual([]);
    expect(uncaught).toEqual([]);
  });
});
