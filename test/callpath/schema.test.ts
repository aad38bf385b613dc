import { describe, expect, it } from 'vitest';
import { normalizeSchemaUncached as normalize, normalizeToolSchema, schemaProviderFamily } from '../../kernel/schema/index.js';

describe('schema normalization', () => {
  it('inlines local $refs, keeps the referencing node\'s description, and drops $defs', () => {
    const out = normalize({
      type: 'object',
      properties: { where: { $ref: '#/$defs/loc', description: 'target' } },
      $defs: { loc: { type: 'string', minLength: 1 } },
    });
    expect(out).toEqual({ type: 'object', properties: { where: { type: 'string', minLength: 1, description: 'target' } } });
  });

  it('cuts recursive $refs and object cycles to {} instead of looping', () => {
    const recursive = normalize({
      type: 'object', properties: { node: { $ref: '#/$defs/node' } },
      $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
    });
    expect(recursive.properties).toEqual({ node: { type: 'object', properties: { child: {} } } });
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic.properties as Record<string, unknown>).self = cyclic;
    expect(normalize(cyclic)).toEqual({ type: 'object', properties: { self: {} } });
  });

  it('keeps $defs when a reference cannot be resolved locally', () => {
    const out = normalize({ type: 'object', properties: { a: { $ref: 'https://x/y.json' } }, $defs: { z: {} } });
    expect(out.$defs).toEqual({ z: {} });
    expect(out.properties).toEqual({ a: { $ref: 'https://x/y.json' } });
  });

  it('turns OpenAPI nullable into JSON Schema and drops OpenAPI-only keywords, but not properties named like them', () => {
    const out = normalize({
      type: 'object',
      properties: {
        a: { type: 'string', nullable: true, example: 'x', readOnly: true },
        b: { enum: ['x'], nullable: true },
        c: { anyOf: [{ type: 'string' }, { type: 'number' }], nullable: true },
        nullable: { type: 'boolean' },
      },
    });
    expect(out.properties).toEqual({
      a: { type: ['string', 'null'] },
      b: { enum: ['x', null] },
      c: { anyOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }, { type: 'null' }] },
      nullable: { type: 'boolean' },
    });
  });

  it('shapes the root as an object schema', () => {
    expect(normalize({})).toEqual({ type: 'object', properties: {} });
    expect(normalize({ properties: { a: {} } })).toEqual({ type: 'object', properties: { a: {} } });
    expect(normalize({ type: 'object' })).toEqual({ type: 'object', properties: {} });
    expect(normalize({ type: 'string' })).toEqual({ type: 'object', properties: {} });
    expect(normalize('not a schema')).toEqual({ type: 'object', properties: {} });
    const allOf = { allOf: [{ type: 'object' }] };
    expect(normalize(allOf)).toEqual(allOf);
  });

  it('flattens a top-level anyOf into one object with merged properties, union enums and common required keys', () => {
    const out = normalize({
      description: 'act',
      anyOf: [
        { type: 'object', properties: { action: { const: 'send' }, to: { type: 'string' } }, required: ['action', 'to'] },
        { type: 'object', properties: { action: { const: 'read' }, id: { type: 'string' } }, required: ['action'] },
      ],
    });
    expect(out).toEqual({
      type: 'object', description: 'act', additionalProperties: true, required: ['action'],
      properties: { action: { enum: ['send', 'read'] }, to: { type: 'string' }, id: { type: 'string' } },
    });
  });

  it('gives arrays an items schema, or strips empty items when the model asks', () => {
    const schema = { type: 'object', properties: { tags: { type: 'array' }, ids: { type: 'array', items: {} } } };
    expect(normalize(schema).properties).toEqual({ tags: { type: 'array', items: {} }, ids: { type: 'array', items: {} } });
    expect(normalize(schema, { compat: { omitEmptyArrayItems: true } }).properties).toEqual({ tags: { type: 'array' }, ids: { type: 'array' } });
  });

  it('cleans for Gemini: strips unsupported and unknown keywords, const becomes enum, literal unions become enums', () => {
    const out = normalize({
      type: 'object', additionalProperties: false, 'x-vendor': 1,
      properties: {
        mode: { const: 'fast' },
        size: { type: 'string', format: 'uri', pattern: '^x', minLength: 2 },
        kind: { anyOf: [{ type: 'string', const: 'a' }, { type: 'string', const: 'b' }] },
        maybe: { type: 'string', nullable: true },
      },
    }, { provider: 'google' });
    expect(out).toEqual({
      type: 'object',
      properties: {
        mode: { enum: ['fast'] },
        size: { type: 'string' },
        kind: { type: 'string', enum: ['a', 'b'] },
        maybe: { type: 'string', nullable: true },
      },
    });
  });

  it('leaves JSON Schema keywords for Anthropic and OpenAI', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, additionalProperties: false };
    expect(normalize(schema, { provider: 'anthropic', modelId: 'claude' })).toEqual(schema);
    expect(normalize(schema, { provider: 'openai' })).toEqual(schema);
  });

  it('detects Gemini by provider or model id, but never for Anthropic', () => {
    expect(schemaProviderFamily({ provider: 'google-vertex' })).toBe('gemini');
    expect(schemaProviderFamily({ provider: 'openrouter', modelId: 'google/gemini-2.5-pro' })).toBe('gemini');
    expect(schemaProviderFamily({ provider: 'anthropic', modelId: 'gemini-lookalike' })).toBe('anthropic');
  });

  it('strips keywords a model declares unsupported', () => {
    const out = normalize({ type: 'object', properties: { a: { type: 'string', maxLength: 3 } } }, { provider: 'xai', compat: { unsupportedKeywords: ['maxLength'] } });
    expect(out.properties).toEqual({ a: { type: 'string' } });
  });

  it('caches per schema object and target, returns frozen results, and never mutates the input', () => {
    const schema = { type: 'object', properties: { a: { type: 'array' } } };
    const before = structuredClone(schema);
    const first = normalizeToolSchema(schema, { provider: 'openai' });
    expect(normalizeToolSchema(schema, { provider: 'openai' })).toBe(first);
    expect(normalizeToolSchema(schema, { provider: 'google' })).not.toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(schema).toEqual(before);
  });
});
