import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '../../kernel/index.js';
import { PluginTimeoutsSchema, type PluginHost } from '../../kernel/host/index.js';
import { hookDeadline, toolDeadline } from '../../kernel/host/deadlines.js';
import { fixture, testHost } from './helpers.js';

const timeouts = (over: Record<string, number> = {}) => PluginTimeoutsSchema.parse(over);

describe('effective deadlines', () => {
  it('let a declared timeout only shorten the operator’s, and keep maxCallMs as the ceiling', () => {
    const t = timeouts({ callMs: 30_000, maxCallMs: 60_000, hookMs: 15_000 });
    expect(toolDeadline(t, 2e9, undefined)).toEqual({ idleMs: 30_000, maxTotalMs: 60_000 });
    expect(toolDeadline(t, 5_000, undefined)).toEqual({ idleMs: 5_000, maxTotalMs: 60_000 });
    expect(toolDeadline(t, undefined, 45_000)).toEqual({ idleMs: 45_000, maxTotalMs: 60_000 }); // the kernel's own caller
    expect(toolDeadline(t, undefined, 9e9)).toEqual({ idleMs: 60_000, maxTotalMs: 60_000 });
    expect(hookDeadline(t, 'before_tool_call', 2e9, undefined)).toBe(15_000);
    expect(hookDeadline(t, 'before_tool_call', 500, undefined)).toBe(500);
  });

  it('raise the default ceiling so a 7,200 s exec fits, and refuse deadlines setTimeout cannot hold', () => {
    expect(timeouts().maxCallMs).toBeGreaterThan(7_200_000);
    expect(PluginTimeoutsSchema.safeParse({ callMs: 2 ** 31 }).success).toBe(false);
  });
});

describe('a plugin that declares timeouts of 2e9 ms', () => {
  let host: PluginHost | undefined;
  let kernel: Kernel | undefined;
  afterEach(async () => {
    await host?.stop();
    await kernel?.stop();
    host = kernel = undefined;
  });

  it('has them clamped to the operator’s on receipt, and its calls end at the operator’s deadlines', async () => {
    const t = testHost([{ id: 'huge', module: fixture('declares-huge-timeouts'), timeouts: { callMs: 400, hookMs: 300, maxCallMs: 1_500 } }]);
    host = t.host;
    await host.start();
    const contributes = host.contributions()[0]!.contributes;
    expect(contributes.tools.find((x) => x.name === 'hang')!.timeoutMs).toBe(400);
    expect(contributes.hooks[0]!.timeoutMs).toBe(300);
    await expect(host.invokeTool('huge', 'hang', {})).rejects.toMatchObject({ code: 'PLUGIN_TIMEOUT', message: expect.stringContaining('deadline 400 ms') });
    await expect(host.callHook('huge', 'before_tool_call', { toolName: 'x', params: {} })).rejects.toMatchObject({ code: 'PLUGIN_TIMEOUT', message: expect.stringContaining('deadline 300 ms') });
    // Progress keeps resetting the idle deadline, but not past the absolute ceiling.
    await expect(host.invokeTool('huge', 'progress_forever', {})).rejects.toMatchObject({ code: 'PLUGIN_TIMEOUT', message: expect.stringContaining('cap 1500 ms') });
  });

  it('cannot keep a gated call pending: its hook fails closed at hookMs and the call is blocked', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'pincer-deadline-ws-'));
    kernel = createKernel(
      { plugins: [{ id: 'huge', module: fixture('declares-huge-timeouts'), timeouts: { hookMs: 300 } }, { id: 'plain', module: fixture('plain') }], tools: { profile: 'full' } },
      { logger: () => undefined, cwd },
    );
    await kernel.start();
    // A blocked call is a result or a typed error depending on the door's contract; either way it settles.
    const outcome = await kernel.assembleTools().execute('echo', { a: 1 }).then(
      (result) => JSON.stringify(result),
      (error: { code?: string; message?: string }) => `${error.code}: ${error.message}`,
    );
    expect(outcome).toMatch(/POLICY_HOOK_FAILED|blocked/);
    expect(outcome).not.toContain('{\\"a\\":1}'); // the tool never ran
  });
});
