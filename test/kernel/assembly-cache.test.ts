import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scratchCwd } from '../helpers/scratch-cwd.js';
import { createKernel, type CallResult, type Kernel } from '../../kernel/index.js';

// Runs of one shape share their (frozen) policy result; what is bound to a run (its
// session) must stay the run's own. Real plugin processes: the session probe reports the
// session handle each call reached it with.
const probe = path.resolve(import.meta.dirname, '../../dist/test/fixtures/plugins/session-probe.js');
const echo = path.resolve(import.meta.dirname, '../../dist/test/fixtures/plugins/echo.js');

let kernel: Kernel | undefined;

afterEach(async () => {
  await kernel?.stop();
  kernel = undefined;
});

async function start(): Promise<Kernel> {
  kernel = createKernel({ plugins: [{ id: 'probe', module: probe }], tools: { deny: ['peek'] } }, { cwd: scratchCwd(), logger: () => undefined });
  await kernel.start();
  return kernel;
}

const text = (result: CallResult) => result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');

describe('assembly caches per run shape', () => {
  it('keeps each run of a shape bound to its own session though they share the policy result', async () => {
    const k = await start();
    const first = k.assembleTools({ agentId: 'main', sessionKey: 'one' });
    const second = k.assembleTools({ agentId: 'main', sessionKey: 'two' });
    expect(first.tools.map((tool) => tool.name).sort()).toEqual(['channel', 'direct', 'hold', 'whoami']);
    // Called in the other order than assembled: a binding shared through the cache would show here.
    const two = text(await second.execute('whoami', {}));
    const one = text(await first.execute('whoami', {}));
    expect(one).toMatch(/^main\/one#/);
    expect(two).toMatch(/^main\/two#/);
  });

  it('hands out results no caller can widen for the next run', async () => {
    const k = await start();
    const run = k.assembleTools({ agentId: 'main' });
    expect(() => (run.tools as unknown[]).push({ name: 'peek' })).toThrow(TypeError);
    expect(() => (run.effectiveAllowlist as string[]).push('peek')).toThrow(TypeError);
    expect(() => (run.removed as unknown[]).pop()).toThrow(TypeError);
    const next = k.assembleTools({ agentId: 'main' });
    expect(next.effectiveAllowlist).not.toContain('peek');
    expect(next.removed.map((removal) => removal.tool)).toEqual(['peek']);
    expect((await next.execute('peek', { path: 'x' })).outcome).toBe('denied');
  });

  it("decides a plugin's changed tool list afresh, in run shapes seen before and in new ones", async () => {
    // The policy keeps each layer's verdicts by tool index per (policy, surface): a list change
    // makes a new surface, so no verdict of the old list may stand for a tool of the new one.
    kernel = createKernel({ plugins: [{ id: 'echo', module: echo }], tools: { deny: ['cwd', 'add*d'] } }, { cwd: scratchCwd(), logger: () => undefined });
    await kernel.start();
    const k = kernel;
    const names = (run: Parameters<Kernel['assembleTools']>[0]) => k.assembleTools(run).tools.map((tool) => tool.name);
    // Tool names, not the plugin id `echo` (which would admit all of its tools).
    const capped = { toolsAllow: ['env', 'added', 'cwd', 'add-tool'] };
    expect(names(capped)).toEqual(['env', 'add-tool']);
    expect(names({})).not.toContain('cwd');
    let changed = false;
    k.on('toolsChanged', () => (changed = true));
    await k.assembleTools({}).execute('add-tool', {});
    const deadline = Date.now() + 20_000;
    while (!changed) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the list change');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    // `added` matches the deny glob `add*d`, so it is removed (and `cwd` still is) in every shape.
    for (const run of [capped, {}, { toolsAllow: ['*', 'new-shape'] }]) {
      const toolSet = k.assembleTools(run);
      expect(toolSet.tools.map((tool) => tool.name)).not.toContain('added');
      expect(toolSet.removed.map((removal) => removal.tool)).toEqual(expect.arrayContaining(['cwd', 'added']));
      expect(toolSet.explain('added')).toMatchObject({ present: false, removal: { ruleKind: 'deny', matchedRules: ['add*d'] } });
    }
    expect(names(capped)).toEqual(['env', 'add-tool']);
  });
});
