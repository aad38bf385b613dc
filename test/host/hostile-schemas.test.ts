import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel, type Kernel } from '../../kernel/index.js';
import { SchemaBudget, SchemaLimitError, assertSchemaWithinLimits, measureJson, normalizeSchemaUncached } from '../../kernel/schema/index.js';
import { screenTools } from '../../kernel/host/tool-screen.js';
import { fixture, waitFor } from './helpers.js';

function chainedRefs(levels: number): Record<string, unknown> {
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) {
    const next = i + 1 < levels ? { $ref: `#/$defs/d${i + 1}` } : { type: 'string' };
    defs[`d${i}`] = { type: 'object', properties: { a: next, b: next } };
  }
  return { type: 'object', properties: { root: { $ref: '#/$defs/d0' } }, $defs: defs };
}

function nested(depth: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: 'string' };
  for (let i = 0; i < depth; i++) schema = { type: 'object', properties: { x: schema } };
  return schema;
}

describe('schema limits', () => {
  it('measures a value nested far deeper than the stack allows, without recursion', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(() => measureJson(deep)).toThrow(new SchemaLimitError('nested deeper than 64 levels as received'));
  });

  it('stops $ref inlining at the node budget instead of expanding 2^20 copies', () => {
    const bomb = chainedRefs(20);
    expect(JSON.stringify(bomb).length).toBeLessThan(2_500);
    expect(() => normalizeSchemaUncached(bomb)).toThrow(SchemaLimitError);
    expect(() => assertSchemaWithinLimits(bomb)).toThrow(/more than 20000 nodes after \$ref inlining/);
  });

  it('charges copies of data such as enum lists to the same budget', () => {
    const bigEnum = { enum: Array.from({ length: 500 }, (_, i) => `v${i}`) };
    const schema = { type: 'object', properties: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`p${i}`, { $ref: '#/$defs/e' }])), $defs: { e: bigEnum } };
    expect(() => assertSchemaWithinLimits(schema)).toThrow(/more than 20000 nodes/);
    const budget = new SchemaBudget({ maxBytes: 1e9, maxDepth: 64, maxNodes: 1e9 });
    measureJson(schema, budget);
    expect(budget.used).toBeLessThan(1_000); // what was received is small: only inlining makes it big
  });

  it('passes real schemas, recursive ones included, and returns what one normalized copy costs', () => {
    const recursive = { type: 'object', properties: { node: { $ref: '#/$defs/n' } }, $defs: { n: { type: 'object', properties: { child: { $ref: '#/$defs/n' } } } } };
    expect(assertSchemaWithinLimits(recursive)).toBeLessThan(20);
    expect(assertSchemaWithinLimits(nested(30))).toBe(31);
  });

  it('screens a tool list tool by tool: a bad schema or name drops only its own tool', () => {
    const tool = (name: string, inputSchema: Record<string, unknown> = {}) => ({ name, description: name, inputSchema, family: 'x' });
    const { tools, rejected } = screenTools([tool('ok'), tool('bomb', chainedRefs(20)), tool('deep', nested(2_000)), tool('bad name'), tool('OK'), 'junk'], { pluginId: 'p', callMs: 1_000 });
    expect(tools.map((t) => t.name)).toEqual(['ok']);
    expect(rejected.map((r) => [r.name, r.code])).toEqual([
      ['bomb', 'SCHEMA_TOO_COMPLEX'],
      ['deep', 'SCHEMA_TOO_COMPLEX'],
      ['bad name', 'INVALID_TOOL'],
      ['OK', 'DUPLICATE_TOOL'],
      ['#5', 'INVALID_TOOL'],
    ]);
    expect(rejected[1]!.reason).toMatch(/tool "deep": inputSchema refused \(nested deeper than 64 levels as received\)/);
  });

  it('bounds an outputSchema like an inputSchema: a bomb there drops its tool, with the reason', () => {
    const { tools, rejected } = screenTools([
      { name: 'out_bomb', description: '', inputSchema: {}, outputSchema: chainedRefs(20), family: 'x' },
      { name: 'out_deep', description: '', inputSchema: {}, outputSchema: nested(2_000), family: 'x' },
      { name: 'fine', description: '', inputSchema: {}, outputSchema: { type: 'object', properties: { n: { type: 'number' } } }, family: 'x' },
    ], { pluginId: 'p', callMs: 1_000 });
    expect(tools.map((t) => [t.name, t.outputSchema])).toEqual([['fine', { type: 'object', properties: { n: { type: 'number' } } }]]);
    expect(rejected.map((r) => [r.name, r.code])).toEqual([['out_bomb', 'SCHEMA_TOO_COMPLEX'], ['out_deep', 'SCHEMA_TOO_COMPLEX']]);
    expect(rejected[0]!.reason).toMatch(/tool "out_bomb": outputSchema refused \(more than 20000 nodes after \$ref inlining\)/);
  });

  it('bounds the work of checking one whole list, refused schemas included', () => {
    const bombs = Array.from({ length: 50 }, (_, i) => ({ name: `b${i}`, description: '', inputSchema: chainedRefs(20), family: 'x' }));
    const { tools, rejected } = screenTools([...bombs, { name: 'late', description: '', inputSchema: { type: 'object' }, family: 'x' }], { pluginId: 'p', callMs: 1_000 });
    expect(tools).toEqual([]);
    expect(rejected).toHaveLength(51);
    expect(rejected.at(-1)!.reason).toMatch(/schemas together have more than 100000 nodes/);
  });
});

describe('a plugin whose schemas are bombs', () => {
  let kernel: Kernel | undefined;
  afterEach(async () => {
    await kernel?.stop();
    kernel = undefined;
  });

  it('loses only its bad tools, with the reason shown, and every other tool stays assembled', async () => {
    const cwd = mkdtempSync(path.join(tmpdir(), 'pincer-schema-ws-'));
    kernel = createKernel(
      { plugins: [{ id: 'bombs', module: fixture('bombs-its-schemas') }, { id: 'plain', module: fixture('plain') }], tools: { profile: 'full' } },
      { logger: () => undefined, cwd },
    );
    await kernel.start();
    const toolSet = kernel.assembleTools();
    expect(toolSet.tools.map((t) => t.name).sort()).toEqual(['bomb_again', 'echo', 'honest']);
    const status = kernel.plugins().find((p) => p.id === 'bombs')!;
    expect(status.state).toBe('ready');
    expect(status.rejectedTools.map((r) => [r.name, r.code])).toEqual([
      ['ref_bomb', 'SCHEMA_TOO_COMPLEX'],
      ['deep_bomb', 'SCHEMA_TOO_COMPLEX'],
      ['output_bomb', 'SCHEMA_TOO_COMPLEX'],
    ]);
    expect(toolSet.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/refused tool: plugin "bombs" tool "ref_bomb": inputSchema refused \(more than 20000 nodes after \$ref inlining\)/),
        expect.stringMatching(/refused tool: plugin "bombs" tool "output_bomb": outputSchema refused \(more than 20000 nodes after \$ref inlining\)/),
      ]),
    );
    // The same attack through a later tool-list update.
    expect((await toolSet.execute('bomb_again', {})).content[0]).toMatchObject({ text: 'sent' });
    await waitFor(() => kernel!.plugins().find((p) => p.id === 'bombs')!.rejectedTools.some((r) => r.name === 'later_bomb'), 5_000, 'update screened');
    expect(kernel.assembleTools().tools.map((t) => t.name).sort()).toEqual(['echo', 'honest']);
    expect(kernel.assembleTools({ provider: 'google' }).tools.map((t) => t.name).sort()).toEqual(['echo', 'honest']);
  });
});
