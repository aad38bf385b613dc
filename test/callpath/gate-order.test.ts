import { describe, expect, it } from 'vitest';
import { createToolGate, isCallPathError, type TrustedToolPolicy } from '../../kernel/gate/index.js';
import { ctx, hook, recordingTool } from './helpers.js';

describe('gate order and outcomes', () => {
  it('passes calls straight through when it has no hooks, policies, observers, diagnostics or loop detection', async () => {
    const gate = createToolGate();
    const tool = recordingTool();
    expect(gate.passThrough).toBe(true);
    const result = await gate.wrap(tool).execute({ path: 'a' }, ctx());
    expect(result.content[0]).toEqual({ type: 'text', text: 'ran read' });
    expect(tool.calls).toEqual([{ path: 'a' }]);
  });

  it('runs trusted policies before plugin hooks, and hooks by priority with ties in registration order', async () => {
    const order: string[] = [];
    const trusted: TrustedToolPolicy = { id: 'host', evaluate: () => void order.push('trusted') };
    const mk = (id: string, priority?: number) => ({ pluginId: id, priority, handler: async () => void order.push(id) });
    const gate = createToolGate({ trustedPolicies: [trusted], hooks: [mk('low', -1), mk('tieA'), mk('high', 10), mk('tieB')] });
    await gate.wrap(recordingTool()).execute({}, ctx());
    expect(order).toEqual(['trusted', 'high', 'tieA', 'tieB', 'low']);
  });

  it('normalizes the tool name before hooks see it (bash becomes exec)', async () => {
    const seen: string[] = [];
    const gate = createToolGate({ hooks: [{ pluginId: 'p', handler: async (e) => void seen.push(e.toolName) }] });
    await gate.wrap(recordingTool('  BASH ')).execute({}, ctx());
    expect(seen).toEqual(['exec']);
  });

  it('only calls hooks whose tool matcher covers the normalized name', async () => {
    const seen: string[] = [];
    const gate = createToolGate({
      hooks: [
        { pluginId: 'fs', toolMatcher: (n) => n === 'read', handler: async () => void seen.push('fs') },
        { pluginId: 'sh', toolMatcher: (n) => n === 'exec', handler: async () => void seen.push('sh') },
      ],
    });
    await gate.wrap(recordingTool('read')).execute({}, ctx());
    expect(seen).toEqual(['fs']);
  });

  it('returns a structured blocked result to the model when a hook vetoes, and never runs the tool', async () => {
    const tool = recordingTool();
    const gate = createToolGate({ hooks: [hook('guard', { block: true, blockReason: 'no secrets' })] });
    const result = await gate.wrap(tool).execute({ path: '.env' }, ctx());
    // An error result, unlike the reference: a naive is_error mapping must not report a block as success (23.3).
    expect(result).toEqual({
      content: [{ type: 'text', text: 'no secrets' }],
      details: { status: 'blocked', deniedReason: 'plugin-before-tool-call', reason: 'no secrets' },
      isError: true,
    });
    expect(tool.calls).toEqual([]);
  });

  it('uses a default reason when a block gives none, naming the trusted policy that blocked', async () => {
    const policy: TrustedToolPolicy = { id: 'org-policy', evaluate: () => ({ allow: false }) };
    const result = await createToolGate({ trustedPolicies: [policy] }).wrap(recordingTool()).execute({}, ctx());
    expect(result.details).toMatchObject({ status: 'blocked', reason: 'blocked by org-policy' });
  });

  it('lets a trusted policy block before any plugin hook runs', async () => {
    let hookRan = false;
    const gate = createToolGate({
      trustedPolicies: [{ id: 't', evaluate: () => ({ block: true, blockReason: 'host says no' }) }],
      hooks: [{ pluginId: 'p', handler: async () => void (hookRan = true) }],
    });
    const result = await gate.wrap(recordingTool()).execute({}, ctx());
    expect(result.details?.reason).toBe('host says no');
    expect(hookRan).toBe(false);
  });

  it('runs the tool with rewritten params merged shallowly over the call params', async () => {
    const tool = recordingTool();
    const gate = createToolGate({
      trustedPolicies: [{ id: 't', evaluate: () => ({ params: { limit: 10 } }) }],
      hooks: [hook('a', { params: { path: '/safe' } }), hook('b', { params: { encoding: 'utf8' } })],
    });
    await gate.wrap(tool).execute({ path: '/etc/passwd', offset: 1 }, ctx());
    expect(tool.calls).toEqual([{ path: '/safe', offset: 1, limit: 10, encoding: 'utf8' }]);
  });

  it('reports allowed, rewritten outcomes through evaluate without running anything', async () => {
    const gate = createToolGate({ hooks: [hook('a', { params: { x: 2 } })] });
    const outcome = await gate.evaluate(recordingTool(), { x: 1 }, 'c1');
    expect(outcome).toMatchObject({ kind: 'allowed', rewritten: true, params: { x: 2 } });
    const same = await gate.evaluate(recordingTool(), { x: 2 }, 'c2');
    expect(same).toMatchObject({ kind: 'allowed', rewritten: false });
  });

  it('gives each handler its own deep copy of the event, so a mutation reaches neither the caller nor the next handler', async () => {
    const seenByB: unknown[] = [];
    const params = { nested: { value: 1 } };
    const gate = createToolGate({
      hooks: [
        { pluginId: 'a', priority: 2, handler: async (e) => { (e.params.nested as { value: number }).value = 99; e.params.extra = true; return undefined; } },
        { pluginId: 'b', priority: 1, handler: async (e) => void seenByB.push(structuredClone(e.params)) },
      ],
    });
    const tool = recordingTool();
    await gate.wrap(tool).execute(params, ctx());
    expect(seenByB).toEqual([{ nested: { value: 1 } }]);
    expect(params).toEqual({ nested: { value: 1 } });
    expect(tool.calls).toEqual([{ nested: { value: 1 } }]);
  });

  it('fails the call with INVALID_PARAMS when params are not an object, even on the pass-through path', async () => {
    const tool = recordingTool();
    const error = await createToolGate().wrap(tool).execute('nope' as never, ctx()).catch((e) => e);
    expect(isCallPathError(error) && error.code).toBe('INVALID_PARAMS');
    expect(tool.calls).toEqual([]);
  });

  it('does not wrap a tool twice', () => {
    const gate = createToolGate({ hooks: [hook('a', undefined)] });
    const once = gate.wrap(recordingTool());
    expect(gate.wrap(once)).toBe(once);
  });

  it('preserves tool metadata on the wrapped tool', () => {
    const tool = recordingTool('read', { pluginId: 'fs-tools', executionMode: 'parallel' });
    const wrapped = createToolGate({ hooks: [hook('a', undefined)] }).wrap(tool);
    expect(wrapped).toMatchObject({ name: 'read', pluginId: 'fs-tools', executionMode: 'parallel', parameters: tool.parameters });
  });
});

describe('detached copies', () => {
  it('copies JSON-shaped params without sharing, keeps a "__proto__" key as data, and survives cycles', async () => {
    const { detachedCopy } = await import('../../kernel/gate/index.js');
    const input = JSON.parse('{"a":{"b":[1,{"c":2}]},"__proto__":{"polluted":true}}');
    const copy = detachedCopy(input);
    expect(copy).toEqual(input);
    expect(copy.a).not.toBe(input.a);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const cyclic: Record<string, unknown> = { x: 1 };
    cyclic.self = cyclic;
    const c = detachedCopy(cyclic);
    expect(c.self).toBe(c);
  });
});
