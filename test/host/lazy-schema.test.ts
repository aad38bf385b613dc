import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { lazySchema, resolveLazySchema, resolveLazySchemaTree } from '../../protocol/index.js';
import { HandshakeParams, ToolInvokeResult } from '../../protocol/index.js';

describe('lazy protocol schemas', () => {
  it('builds a schema on its first use, once, and not at definition', () => {
    let builds = 0;
    const Lazy = lazySchema(() => {
      builds += 1;
      return z.object({ a: z.number() });
    });
    expect(builds).toBe(0);
    expect(Lazy.parse({ a: 1, extra: true })).toEqual({ a: 1 });
    expect(Lazy.safeParse({ a: 'x' }).success).toBe(false);
    expect(builds).toBe(1);
  });

  it('stands in for its schema: instanceof, keys, methods and composition', () => {
    const Child = lazySchema(() => z.object({ n: z.number().int() }));
    const Parent = z.object({ child: Child, list: z.array(Child).optional() });
    expect(Child instanceof z.ZodObject).toBe(true);
    expect(Object.keys(Child.shape)).toEqual(['n']);
    expect(Parent.parse({ child: { n: 2 }, list: [{ n: 3 }] })).toEqual({ child: { n: 2 }, list: [{ n: 3 }] });
    expect(Parent.safeParse({ child: { n: 1.5 } }).success).toBe(false);
    expect(Child.optional().parse(undefined)).toBeUndefined();
    expect(Child.extend({ m: z.string() }).parse({ n: 1, m: 'x' })).toEqual({ n: 1, m: 'x' });
  });

  it('exports the same JSON Schema as the eager schema, through stand-ins at any depth', () => {
    const eager = () => {
      const Leaf = z.string().min(1).describe('a leaf');
      const Node = z.object({ leaf: Leaf, leaves: z.array(Leaf).default([]), choice: z.union([Leaf, z.number()]).optional() });
      return z.object({ node: Node, nodes: z.record(z.string(), Node) });
    };
    const Leaf = lazySchema(() => z.string().min(1).describe('a leaf'));
    const Node = lazySchema(() => z.object({ leaf: Leaf, leaves: z.array(Leaf).default([]), choice: z.union([Leaf, z.number()]).optional() }));
    const Root = lazySchema(() => z.object({ node: Node, nodes: z.record(z.string(), Node) }));
    // An eager schema around stand-ins needs the tree resolved, as the kernel's config schema does.
    const EagerAround = z.object({ root: Root });
    const options = { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' } as const;
    expect(z.toJSONSchema(resolveLazySchemaTree(Root), options)).toEqual(z.toJSONSchema(eager(), options));
    expect(z.toJSONSchema(resolveLazySchemaTree(EagerAround), options)).toEqual(z.toJSONSchema(z.object({ root: eager() }), options));
  });

  it('leaves a value that is not a stand-in as it is', () => {
    const plain = z.string();
    expect(resolveLazySchema(plain)).toBe(plain);
    expect(resolveLazySchema(null)).toBeNull();
    expect(resolveLazySchemaTree(plain)).toBe(plain);
  });

  it('keeps the protocol schemas strict (a handshake and a tool result as before)', () => {
    expect(HandshakeParams.safeParse({ protocolVersions: [], kernel: { name: 'k', version: '1' }, capabilities: {} }).success).toBe(false);
    expect(HandshakeParams.parse({ protocolVersions: [1], kernel: { name: 'k', version: '1' }, capabilities: {} }).settings).toEqual({});
    expect(ToolInvokeResult.safeParse({ content: [{ type: 'text', text: 'ok' }] }).success).toBe(true);
    expect(ToolInvokeResult.safeParse({ content: [{ type: 'text' }] }).success).toBe(false);
  });
});

describe('every schema the protocol exports', () => {
  it('is built on first use (a new schema written eagerly would be built by every process at load)', async () => {
    const protocol = await import('../../protocol/index.js');
    const eager = Object.entries(protocol)
      .filter(([, value]) => typeof value === 'object' && value !== null && '_zod' in value)
      .filter(([, value]) => resolveLazySchema(value) === value)
      .map(([name]) => name);
    expect(eager).toEqual([]);
  });
});
