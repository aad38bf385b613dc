/**
 * The provider adapters against each provider's documented tool rules, written here as checkers
 * independent of the adapters: OpenAI function tools (and strict mode: every property required,
 * `additionalProperties: false`, optional ones nullable, supported keywords only), Anthropic
 * tools (an object root without anyOf/oneOf/allOf), Gemini function declarations (the OpenAPI
 * subset, one type, string enums, non-empty object properties). Every adapter runs over the
 * bundled plugins' real schemas and a set of awkward ones.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderToolError, createKernel, defaultConfig, toAnthropicTools, toGeminiTools, toOpenAITools, type Kernel } from '../../kernel/index.js';

type Schema = Record<string, any>;
const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every subschema of a tree, with its path. */
function* nodes(schema: unknown, path = '$'): Generator<[string, Schema]> {
  if (!isObject(schema)) return;
  yield [path, schema];
  if (isObject(schema.properties)) for (const [k, v] of Object.entries(schema.properties)) yield* nodes(v, `${path}.${k}`);
  if (schema.items !== undefined) yield* nodes(schema.items, `${path}[]`);
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(schema[key])) for (const [i, v] of schema[key].entries()) yield* nodes(v, `${path}.${key}[${i}]`);
  for (const key of ['$defs', 'definitions']) if (isObject(schema[key])) for (const [k, v] of Object.entries(schema[key])) yield* nodes(v, `${path}.${key}.${k}`);
}

// OpenAI: "a-z, A-Z, 0-9, underscores and dashes, max 64"; parameters an object schema without root combinators.
function openAIProblems(fn: { name: string; parameters: Schema; strict: boolean }): string[] {
  const problems: string[] = [];
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(fn.name)) problems.push(`name ${fn.name}`);
  if (fn.parameters.type !== 'object') problems.push('root type is not object');
  for (const key of ['anyOf', 'oneOf', 'allOf', 'enum', 'not']) if (key in fn.parameters) problems.push(`root has ${key}`);
  if (fn.strict) problems.push(...strictProblems(fn.parameters));
  return problems;
}

// OpenAI strict mode (Structured Outputs, supported schemas).
const STRICT_SUPPORTED = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'description', 'title', '$ref', '$defs', 'definitions', 'pattern', 'format', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'minItems', 'maxItems']);
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
function strictProblems(root: Schema): string[] {
  const problems: string[] = [];
  for (const [path, node] of nodes(root)) {
    for (const key of Object.keys(node)) if (!STRICT_SUPPORTED.has(key)) problems.push(`${path} uses unsupported ${key}`);
    if (node.format !== undefined && !STRICT_FORMATS.has(node.format)) problems.push(`${path} format ${node.format}`);
    if (node.type === 'object' || (Array.isArray(node.type) && node.type.includes('object'))) {
      if (node.additionalProperties !== false) problems.push(`${path} lacks additionalProperties: false`);
      const keys = Object.keys(node.properties ?? {}).sort();
      if (JSON.stringify([...(node.required ?? [])].sort()) !== JSON.stringify(keys)) problems.push(`${path} does not require every property`);
    }
    if (node.type === undefined && node.enum === undefined && !('const' in node) && node.anyOf === undefined && node.$ref === undefined) problems.push(`${path} has no type`);
  }
  return problems;
}

// Anthropic: name rule, input_schema type object, no oneOf/allOf/anyOf at the top level.
function anthropicProblems(tool: { name: string; input_schema: Schema }): string[] {
  const problems: string[] = [];
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(tool.name)) problems.push(`name ${tool.name}`);
  if (tool.input_schema.type !== 'object') problems.push('input_schema type is not object');
  for (const key of ['anyOf', 'oneOf', 'allOf']) if (key in tool.input_schema) problems.push(`input_schema has ${key} at the top level`);
  return problems;
}

// Gemini: name rule; parameters an OBJECT with non-empty properties (or absent); the OpenAPI Schema subset.
const GEMINI_FIELDS = new Set(['type', 'format', 'title', 'description', 'nullable', 'enum', 'properties', 'required', 'items', 'anyOf', 'oneOf', 'allOf', 'default', 'propertyOrdering', 'minItems', 'maxItems', 'minimum', 'maximum']);
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object']);
function geminiProblems(fn: { name: string; parameters?: Schema }): string[] {
  const problems: string[] = [];
  if (!/^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/.test(fn.name)) problems.push(`name ${fn.name}`);
  if (!fn.parameters) return problems;
  if (fn.parameters.type !== 'object') problems.push('parameters type is not object');
  for (const [path, node] of nodes(fn.parameters)) {
    for (const key of Object.keys(node)) if (!GEMINI_FIELDS.has(key)) problems.push(`${path} uses ${key}`);
    if (node.type !== undefined && !(typeof node.type === 'string' && GEMINI_TYPES.has(node.type))) problems.push(`${path} type ${JSON.stringify(node.type)}`);
    if (Array.isArray(node.enum) && node.enum.some((v: unknown) => typeof v !== 'string')) problems.push(`${path} enum of non-strings`);
    if (Array.isArray(node.enum) && node.type !== 'string') problems.push(`${path} enum without type string`);
    if ('properties' in node && Object.keys(node.properties ?? {}).length === 0) problems.push(`${path} empty properties`);
    for (const name of node.required ?? []) if (!(name in (node.properties ?? {}))) problems.push(`${path} requires undefined ${name}`);
  }
  return problems;
}

/** Awkward schemas a plugin or MCP server may well contribute. */
const AWKWARD = [
  { name: 'no_params', description: 'Takes nothing', inputSchema: {} },
  { name: 'root_union', description: 'One of two shapes', inputSchema: { anyOf: [{ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] }, { type: 'object', properties: { b: { type: 'number' } }, required: ['b'] }] } },
  { name: 'at_least_one', description: 'Pattern from MCP servers', inputSchema: { type: 'object', properties: { title: { type: 'string' }, body: { type: 'string' } }, anyOf: [{ required: ['title'] }, { required: ['body'] }] } },
  { name: 'all_of', description: 'Composed', inputSchema: { allOf: [{ type: 'object', properties: { id: { type: 'string' } }, required: ['id'] }, { properties: { tags: { type: 'array' } } }] } },
  {
    name: 'mixed',
    description: 'Everything at once',
    inputSchema: {
      $defs: { Point: { type: 'object', properties: { x: { type: 'number', minimum: 0 }, y: { type: 'number' } }, required: ['x'] } },
      type: 'object',
      properties: {
        path: { type: 'string', minLength: 1, format: 'uri', description: 'A path' },
        mode: { enum: [1, 2, 4] },
        level: { type: ['string', 'integer'] },
        maybe: { type: 'string', nullable: true },
        point: { $ref: '#/$defs/Point' },
        kind: { const: 'file' },
        nested: { type: 'object', properties: { deep: { type: 'object', properties: { leaf: { type: 'boolean' } } } } },
        list: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n', 'ghost'] } },
      },
      required: ['path', 'ghost'],
      additionalProperties: false,
    },
  },
];

describe('provider adapters', () => {
  let kernel: Kernel;
  let real: { name: string; description: string; inputSchema: object }[];
  beforeAll(async () => {
    // The bundled plugins are lazy: their real schemas come from the manifests, no process starts.
    kernel = createKernel(defaultConfig({ cwd: process.cwd() }), { logger: () => undefined });
    await kernel.start();
    real = [...kernel.assembleTools({}).tools];
  });
  afterAll(() => kernel.stop());

  const corpus = () => [...real, ...AWKWARD];

  it('gives OpenAI function tools its rules accept, Chat Completions and Responses alike', () => {
    expect(real.length).toBeGreaterThan(5);
    for (const tool of toOpenAITools(corpus())) expect(openAIProblems(tool.function), tool.function.name).toEqual([]);
    for (const tool of toOpenAITools(corpus(), { api: 'responses' })) {
      expect(tool).toMatchObject({ type: 'function', strict: false });
      expect(openAIProblems(tool), tool.name).toEqual([]);
    }
  });

  it('makes every tool it can strict for OpenAI, and says why for the rest', () => {
    const warnings: string[] = [];
    const tools = toOpenAITools(corpus(), { strict: true, onWarning: (w) => warnings.push(w) });
    for (const tool of tools) expect(openAIProblems(tool.function), tool.function.name).toEqual([]);
    const strict = tools.filter((t) => t.function.strict).map((t) => t.function.name);
    expect(strict).toEqual(expect.arrayContaining(['read', 'write', 'no_params', 'mixed']));
    // exec's env is a map of names of the caller's choosing; tags holds values of any type.
    expect(strict).not.toContain('exec');
    expect(strict).not.toContain('all_of');
    expect(warnings).toContain('tool "exec" is sent without strict mode: parameters.env takes keys of its own choosing (additionalProperties), which strict mode cannot express');
    expect(warnings).toContain('tool "all_of" is sent without strict mode: parameters.tags[] accepts any value, which strict mode cannot express');
  });

  it('turns optional properties into required nullable ones under strict mode', () => {
    const [tool] = toOpenAITools([real.find((t) => t.name === 'read')!], { strict: true });
    const params = tool.function.parameters as Schema;
    expect(params.required).toEqual(Object.keys(params.properties));
    expect(params.properties.path.type).toBe('string'); // required stays as it was
    expect(params.properties.offset.type).toEqual(expect.arrayContaining(['integer', 'null']));
    const mixed = toOpenAITools([AWKWARD[4]], { strict: true })[0].function.parameters as Schema;
    expect(mixed.properties.mode).toEqual({ anyOf: [{ enum: [1, 2, 4] }, { type: 'null' }] });
    expect(mixed.properties.path).toEqual({ type: 'string', description: 'A path' });
  });

  it('gives Anthropic tools with an object input_schema and no root combinators', () => {
    for (const tool of toAnthropicTools(corpus())) expect(anthropicProblems(tool), tool.name).toEqual([]);
    const atLeastOne = toAnthropicTools([AWKWARD[2]])[0].input_schema;
    expect(atLeastOne.properties).toEqual({ title: { type: 'string' }, body: { type: 'string' } });
  });

  it('gives Gemini function declarations within its OpenAPI subset, without parameters for a tool that takes none', () => {
    const [tool] = toGeminiTools(corpus());
    for (const fn of tool.functionDeclarations) expect(geminiProblems(fn), fn.name).toEqual([]);
    const noParams = tool.functionDeclarations.find((f) => f.name === 'no_params')!;
    expect(noParams.parameters).toBeUndefined();
    const mixed = tool.functionDeclarations.find((f) => f.name === 'mixed')!.parameters as Schema;
    expect(mixed.properties.mode).toEqual({ type: 'integer', description: 'One of: 1, 2, 4.' });
    expect(mixed.properties.kind).toEqual({ type: 'string', enum: ['file'] });
    expect(mixed.properties.level.anyOf).toEqual([{ type: 'string' }, { type: 'integer' }]);
    expect(mixed.required).toEqual(['path']);
    expect(toGeminiTools([])).toEqual([]);
  });

  it('refuses a name a provider would reject with a typed error naming the rule', () => {
    const bad = [{ name: 'has space', description: '', inputSchema: {} }];
    expect(() => toOpenAITools(bad)).toThrow(ProviderToolError);
    expect(() => toAnthropicTools(bad)).toThrow(/tool "has space" cannot be sent to anthropic: a function name must be letters, digits/);
    try {
      toGeminiTools([{ name: '9lives', inputSchema: {} }]);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_TOOL_NAME', provider: 'gemini', tool: '9lives' });
    }
  });
});
