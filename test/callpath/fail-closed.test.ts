import { describe, expect, it, vi } from 'vitest';
import { createToolGate, isCallPathError } from '../../kernel/gate/index.js';
import { ctx, hook, recordingTool } from './helpers.js';

async function failureOf(promise: Promise<unknown>) {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!isCallPathError(error)) throw new Error(`expected a CallPathError, got ${String(error)}`);
  return error;
}

describe('fail closed', () => {
  it('fails the call with POLICY_HOOK_FAILED when a hook throws, logs it, and never runs the tool', async () => {
    const tool = recordingTool();
    const errors: string[] = [];
    const gate = createToolGate({
      hooks: [{ pluginId: 'crashy', handler: async () => { throw new Error('boom'); } }],
      logger: { warn: () => undefined, error: (m) => errors.push(m) },
    });
    const error = await failureOf(gate.wrap(tool).execute({}, ctx('c9')));
    expect(error.code).toBe('POLICY_HOOK_FAILED');
    expect(error.deniedReason).toBe('plugin-before-tool-call');
    expect((error.cause as Error).message).toBe('boom');
    expect(errors[0]).toMatch(/^before_tool_call hook failed: tool=read toolCallId=c9 error=.*crashy.*boom/);
    expect(tool.calls).toEqual([]);
  });

  it('fails the call when a hook times out (per-handler timeout)', async () => {
    vi.useFakeTimers();
    try {
      const tool = recordingTool();
      const gate = createToolGate({ hooks: [{ pluginId: 'slow', timeoutMs: 50, handler: () => new Promise(() => undefined) }] });
      const pending = failureOf(gate.wrap(tool).execute({}, ctx()));
      await vi.advanceTimersByTimeAsync(50);
      const error = await pending;
      expect(error.code).toBe('POLICY_HOOK_FAILED');
      expect((error.cause as Error).message).toMatch(/timed out after 50ms/);
      expect(tool.calls).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('uses a 15 second default timeout per handler', async () => {
    vi.useFakeTimers();
    try {
      const gate = createToolGate({ hooks: [{ pluginId: 'slow', handler: () => new Promise(() => undefined) }] });
      let settled = false;
      const pending = failureOf(gate.wrap(recordingTool()).execute({}, ctx())).finally(() => void (settled = true));
      await vi.advanceTimersByTimeAsync(14_999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending).code).toBe('POLICY_HOOK_FAILED');
    } finally {
      vi.useRealTimers();
    }
  });

  it.each([
    ['a string', 'allow'],
    ['a number', 42],
    ['an array', [{ block: true }]],
    ['a non-boolean block', { block: 'yes' }],
    ['params that are not an object', { params: 'rm -rf /' }],
    ['params that are an array', { params: [1, 2] }],
    ['a non-string blockReason', { blockReason: 7 }],
    ['an approval request without title', { requireApproval: { description: 'x' } }],
    ['an approval with unknown decisions', { requireApproval: { title: 't', description: 'd', allowedDecisions: ['maybe'] } }],
  ])('fails the call when a hook returns %s', async (_label, answer) => {
    const tool = recordingTool();
    const error = await failureOf(createToolGate({ hooks: [hook('garbage', answer)] }).wrap(tool).execute({}, ctx()));
    expect(error.code).toBe('POLICY_HOOK_FAILED');
    expect(tool.calls).toEqual([]);
  });

  it('treats undefined and null answers as "no opinion"', async () => {
    const tool = recordingTool();
    await createToolGate({ hooks: [hook('a', undefined), hook('b', null)] }).wrap(tool).execute({ a: 1 }, ctx());
    expect(tool.calls).toEqual([{ a: 1 }]);
  });

  it('fails the call when a trusted policy throws synchronously', async () => {
    const gate = createToolGate({ trustedPolicies: [{ id: 't', evaluate: () => { throw new Error('sync'); } }] });
    expect((await failureOf(gate.wrap(recordingTool()).execute({}, ctx()))).code).toBe('POLICY_HOOK_FAILED');
  });

  it('still fails closed when an earlier hook allowed and a later one crashes', async () => {
    const tool = recordingTool();
    const gate = createToolGate({
      hooks: [hook('ok', { params: { x: 1 } }, 5), { pluginId: 'bad', handler: async () => { throw new Error('x'); } }],
    });
    await failureOf(gate.wrap(tool).execute({}, ctx()));
    expect(tool.calls).toEqual([]);
  });

  it('runs a hook whose matcher throws (a broken matcher must not exempt a tool from a guard)', async () => {
    const gate = createToolGate({
      hooks: [{ pluginId: 'g', toolMatcher: () => { throw new Error('bad matcher'); }, handler: async () => ({ block: true }) }],
    });
    const result = await gate.wrap(recordingTool()).execute({}, ctx());
    expect(result.details?.status).toBe('blocked');
  });
});

describe('9.10: hooks judge exactly what will run', () => {
  const notJson: [string, Record<string, unknown>, RegExp][] = [
    ['a function', { path: 'a', onDone: () => undefined }, /params\.onDone is a function/],
    ['a class instance', { when: new Date(0) }, /params\.when is a Date instance/],
    ['shared memory', { buffer: new Uint8Array(new SharedArrayBuffer(8)) }, /params\.buffer is a Uint8Array instance/],
    ['a map', { index: new Map() }, /params\.index is a Map instance/],
    ['a bigint', { size: 10n }, /params\.size is a bigint/],
    ['a non-finite number', { limit: Number.NaN }, /params\.limit is the number NaN/],
    ['undefined in an array', { list: [1, undefined] }, /params\.list\[1\] is undefined/],
    ['a symbol', { tag: Symbol('x') }, /params\.tag is a symbol/],
  ];

  it.each(notJson)('refuses params holding %s before any hook runs (fail closed)', async (_what, params, message) => {
    const seen = vi.fn(async () => undefined);
    const tool = recordingTool();
    const gate = createToolGate({ hooks: [{ pluginId: 'guard', handler: seen }] });
    const error = await failureOf(gate.wrap(tool).execute(params, ctx()));
    expect(error.code).toBe('INVALID_PARAMS');
    expect(error.message).toMatch(message);
    expect(seen).not.toHaveBeenCalled();
    expect(tool.calls).toEqual([]);
  });

  it('refuses a cycle and a getter that throws', async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const gate = createToolGate({ hooks: [hook('guard', undefined)] });
    expect((await failureOf(gate.wrap(recordingTool()).execute(cyclic, ctx()))).message).toMatch(/params\.self refers back to itself/);
    const throwing = Object.defineProperty({}, 'x', { enumerable: true, get: () => { throw new Error('no'); } });
    expect((await failureOf(gate.wrap(recordingTool()).execute(throwing, ctx()))).message).toMatch(/could not be read/);
  });

  it('runs the tool with the params the hooks saw, even if the caller changes its object while they decide', async () => {
    const params = { path: 'safe.txt', nested: { mode: 'r' } };
    const tool = recordingTool();
    const gate = createToolGate({
      hooks: [{
        pluginId: 'guard',
        handler: async (event) => {
          // The caller rewrites its own object while the guard is still deciding about the first version.
          params.path = '/etc/shadow';
          params.nested.mode = 'w';
          return event.params.path === 'safe.txt' ? undefined : { block: true };
        },
      }],
    });
    const result = await gate.wrap(tool).execute(params, ctx());
    expect(result.isError).toBeFalsy();
    expect(tool.calls).toEqual([{ path: 'safe.txt', nested: { mode: 'r' } }]);
  });

  it('reads a getter once: the value judged is the value run', async () => {
    let reads = 0;
    const params = Object.defineProperty({}, 'path', { enumerable: true, get: () => (reads++ === 0 ? 'safe.txt' : '/etc/shadow') });
    const tool = recordingTool();
    const gate = createToolGate({ hooks: [{ pluginId: 'guard', handler: async (event) => (event.params.path === 'safe.txt' ? undefined : { block: true }) }] });
    await gate.wrap(tool).execute(params, ctx());
    expect(tool.calls).toEqual([{ path: 'safe.txt' }]);
  });
});
