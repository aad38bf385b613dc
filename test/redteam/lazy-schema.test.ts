/**
 * ATTACK: protocol schemas built on first use (protocol/lazy-schema.ts, protocol/v1/*). Every
 * exported schema is a Proxy stand-in that builds its zod schema the first time anything touches
 * it. docs/protocol.md: "each is a stand-in that parses, composes and reports `instanceof` as the
 * schema does"; docs/performance.md: "A built schema never keeps a stand-in".
 *
 * What is tried: hostile values (wrong types, `__proto__` / `constructor` / `prototype` keys,
 * deep nesting, huge strings) parsed as a schema's very first use and again after it was built;
 * the stand-in's API (instanceof, .shape, .extend, .safeParse, composition, JSON Schema export,
 * reflection); a build that throws; and the same frames on the wire, from a hostile kernel to an
 * SDK plugin and from a hostile plugin to a kernel whose schemas are not built yet.
 *
 * Each test asserts the fence holds. The holes this review found are fixed; each keeps its
 * description under a `// Was a hole` comment.
 */
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import type { PincerConfig } from '../../kernel/index.js';
import { HANDSHAKE, startHostileKernel, type HostileKernel } from '../fuzz/hostile-kernel.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT } from './helpers.js';

type Protocol = typeof import('../../protocol/index.js');

/** A fresh copy of the protocol modules: none of its stand-ins has been built yet. */
async function freshProtocol(): Promise<Protocol> {
  vi.resetModules();
  return import('../../protocol/index.js');
}

/** The exported stand-ins of a protocol module graph, by export name (descriptor members too). */
function standInsOf(protocol: Protocol): [string, z.ZodType][] {
  const found: [string, z.ZodType][] = [];
  const isStandIn = (value: unknown) => typeof value === 'object' && value !== null && protocol.resolveLazySchema(value) !== value;
  for (const [name, value] of Object.entries(protocol)) {
    if (isStandIn(value)) found.push([name, value as z.ZodType]);
    else if (typeof value === 'object' && value !== null && 'kind' in value) {
      for (const part of ['params', 'result', 'value'] as const) {
        const member = (value as unknown as Record<string, unknown>)[part];
        if (isStandIn(member)) found.push([`${name}.${part}`, member as z.ZodType]);
      }
    } else if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [key, member] of Object.entries(value)) if (isStandIn(member)) found.push([`${name}.${key}`, member as z.ZodType]);
    } else if (Array.isArray(value)) value.forEach((member: unknown, i) => isStandIn(member) && found.push([`${name}[${i}]`, member as z.ZodType]));
  }
  return found;
}

function deep(levels: number, leaf: unknown, kind: 'object' | 'array'): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = kind === 'object' ? { a: value } : [value];
  return value;
}

/** Hostile values any schema must judge the same before and after its first build. */
const GENERIC: unknown[] = [
  undefined, null, true, false, 0, -1, 1.5, 2 ** 53, '', 'x', 'x'.repeat(200_000), [], [null], [[]], {},
  JSON.parse('{"__proto__":{"polluted":true,"type":"text","name":"exec"}}'),
  JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
  JSON.parse('{"prototype":{"polluted":true},"__defineGetter__":1}'),
  JSON.parse('{"toString":1,"valueOf":2,"hasOwnProperty":3,"isPrototypeOf":4}'),
  Object.create(null),
  deep(5_000, 1, 'object'),
  deep(5_000, 1, 'array'),
];

/** A value shaped like what the JSON Schema asks for (not always valid: patterns and formats are ignored). */
function sampleOf(schema: Record<string, unknown> | undefined, depth = 0): unknown {
  if (!schema || depth > 12) return {};
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) if (Array.isArray(schema[key])) return sampleOf((schema[key] as Record<string, unknown>[])[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      for (const [key, value] of Object.entries(properties)) out[key] = sampleOf(value, depth + 1);
      return out;
    }
    case 'array':
      return typeof schema.minItems === 'number' && schema.minItems > 0 ? [sampleOf(schema.items as Record<string, unknown>, depth + 1)] : [sampleOf(schema.items as Record<string, unknown>, depth + 1)];
    case 'string':
      return typeof schema.minLength === 'number' ? 'a'.repeat(Math.max(1, schema.minLength)) : 'a';
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? schema.minimum : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return {};
  }
}

/** Variants of a sample: hostile keys at every object node (as own keys, as JSON.parse makes them), each property of the wrong type. */
function hostileVariants(sample: unknown): unknown[] {
  const out: unknown[] = [sample];
  const text = JSON.stringify(sample) ?? 'null';
  for (const injected of ['"__proto__":{"polluted":true,"isError":true,"sessionKey":"evil"}', '"constructor":{"prototype":{"polluted":true}}', '"prototype":{"polluted":true}']) {
    // Insert into every object literal of the sample's JSON text.
    out.push(JSON.parse(text.replace(/\{(?=")/g, `{${injected},`).replace(/\{\}/g, `{${injected}}`)));
  }
  if (sample && typeof sample === 'object' && !Array.isArray(sample)) {
    for (const key of Object.keys(sample)) {
      for (const wrong of [null, 7, 'str', [], {}, deep(3_000, 'x', 'array')]) out.push({ ...(sample as object), [key]: wrong });
      const without: Record<string, unknown> = { ...(sample as object) };
      delete without[key];
      out.push(without);
    }
  }
  return out;
}

/** What a parse decided, in plain data; an own `__proto__` or a changed prototype in the output is recorded. */
function outcome(schema: z.ZodType, value: unknown): unknown {
  let result: ReturnType<z.ZodType['safeParse']>;
  try {
    result = schema.safeParse(value);
  } catch (error) {
    return { threw: String(error) };
  }
  if (!result.success) return { success: false, issues: result.error.issues.map((issue) => [issue.code, issue.path.map(String).join('.'), issue.message]) };
  const prototypes: string[] = [];
  const ownProtoKeys = new Set<string>();
  const walk = (node: unknown, at: string, depth: number) => {
    if (typeof node !== 'object' || node === null || depth > 50) return;
    const proto = Object.getPrototypeOf(node);
    if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) prototypes.push(`${at}: prototype changed`);
    if (Object.prototype.hasOwnProperty.call(node, '__proto__')) ownProtoKeys.add(at);
    for (const [key, child] of Object.entries(node)) walk(child, `${at}.${key}`, depth + 1);
  };
  walk(result.data, '$', 0);
  let data: string;
  try {
    data = JSON.stringify(result.data, (_k, v) => (typeof v === 'string' && v.length > 64 ? `${v.slice(0, 16)}…${v.length}` : v)) ?? 'undefined';
  } catch (error) {
    data = `unserializable: ${String(error).slice(0, 60)}`;
  }
  return { success: true, data: data.length > 2_000 ? `${data.slice(0, 200)}…${data.length}` : data, prototypes, ownProtoKeys: [...ownProtoKeys] };
}

function corpusFor(protocol: Protocol, schema: z.ZodType): unknown[] {
  let sample: unknown;
  try {
    sample = sampleOf(z.toJSONSchema(protocol.resolveLazySchemaTree(schema), { unrepresentable: 'any' }) as Record<string, unknown>);
  } catch {
    sample = {};
  }
  return [...GENERIC, ...hostileVariants(sample)];
}

const polluted = () => ({}) as Record<string, unknown>;

describe('lazy protocol schemas: validation before and after the first build', () => {
  it('every exported stand-in judges hostile values the same as its first use and after it was built, and nothing is polluted', async () => {
    // The reference: a graph whose stand-ins are all built first, then parse.
    const reference = await freshProtocol();
    const referenceSchemas = standInsOf(reference);
    for (const [, schema] of referenceSchemas) reference.resolveLazySchemaTree(schema);
    expect(referenceSchemas.length).toBeGreaterThan(100);
    const corpora = new Map(referenceSchemas.map(([name, schema]) => [name, corpusFor(reference, schema)]));
    const expected = new Map(referenceSchemas.map(([name, schema]) => [name, corpora.get(name)!.map((value) => outcome(schema, value))]));

    // One fresh graph per schema: its first touch of all is the hostile parse.
    const differences: string[] = [];
    const pollution: string[] = [];
    const passedThrough = new Set<string>();
    for (const [name] of referenceSchemas) {
      const fresh = await freshProtocol();
      expect(fresh.ToolInvokeParams).not.toBe(reference.ToolInvokeParams); // a new module graph, nothing built
      const schema = new Map(standInsOf(fresh)).get(name)!;
      expect(schema, name).toBeDefined();
      const corpus = corpora.get(name)!;
      const first = corpus.map((value) => outcome(schema, value));
      const again = corpus.map((value) => outcome(schema, value));
      const want = expected.get(name)!;
      first.forEach((got, i) => {
        if (JSON.stringify(got) !== JSON.stringify(want[i])) differences.push(`${name} #${i} first use: ${JSON.stringify(got).slice(0, 200)} vs built: ${JSON.stringify(want[i]).slice(0, 200)}`);
        if (JSON.stringify(got) !== JSON.stringify(again[i])) differences.push(`${name} #${i} first vs second use`);
        const prototypes = (got as { prototypes?: string[] }).prototypes ?? [];
        if (prototypes.length) pollution.push(`${name} #${i}: ${prototypes.join('; ')}`);
        for (const at of (got as { ownProtoKeys?: string[] }).ownProtoKeys ?? []) passedThrough.add(`${name} ${at}`);
      });
    }
    const all = [...expected.values()].flat() as { success?: boolean }[];
    console.log(`${referenceSchemas.length} stand-ins, ${all.length} parses each way, ${all.filter((o) => o.success).length} accepted`);
    expect(all.filter((o) => o.success).length).toBeGreaterThan(200); // the samples reach past the first check
    expect(differences).toEqual([]);
    expect(pollution).toEqual([]);
    // An own "__proto__" key survives only inside z.unknown() values (details, data, payload,
    // result, value): inert data, passed on as received; never in a field the schema defines.
    console.log(`own "__proto__" keys passed through unchanged at: ${[...passedThrough].join(', ')}`);
    for (const at of passedThrough) expect(at).toMatch(/\.(detail|details|result|data|payload|value)$/);
    expect(polluted().polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).isError).toBeUndefined();
  }, 300_000);

  it('a first use that is not a parse (instanceof, .shape, .extend, composition, JSON Schema) builds the same schema', async () => {
    const reference = await freshProtocol();
    const hostile = JSON.parse('{"name":"x","arguments":{"__proto__":{"a":1},"b":2},"context":{"__proto__":{"sessionKey":"evil"}},"progressToken":{"x":1}}');
    const want = outcome(reference.ToolInvokeParams, hostile);
    const firstTouches: [string, (p: Protocol) => unknown][] = [
      ['instanceof', (p) => p.ToolInvokeParams instanceof z.ZodObject],
      ['.shape', (p) => Object.keys((p.ToolInvokeParams as unknown as z.ZodObject).shape)],
      ['.extend', (p) => (p.ToolInvokeParams as unknown as z.ZodObject).extend({ extra: z.string().optional() })],
      ['composition', (p) => z.object({ inner: p.ToolInvokeParams })],
      ['z.array', (p) => z.array(p.ToolInvokeParams).safeParse([hostile])],
      ['toJSONSchema', (p) => z.toJSONSchema(p.resolveLazySchemaTree(p.ToolInvokeParams))],
      ['key listing', (p) => Object.keys(p.ToolInvokeParams)],
      ['in', (p) => 'safeParse' in p.ToolInvokeParams],
    ];
    for (const [what, touch] of firstTouches) {
      const fresh = await freshProtocol();
      touch(fresh);
      expect(outcome(fresh.ToolInvokeParams, hostile), what).toEqual(want);
      expect(fresh.ToolInvokeParams instanceof z.ZodObject, what).toBe(true);
      expect(fresh.ToolInvokeParams instanceof z.ZodType, what).toBe(true);
    }
    // The composed forms parse as the schema does: an extension keeps every field's rules.
    const fresh = await freshProtocol();
    const extended = (fresh.ToolInvokeParams as unknown as z.ZodObject).extend({ extra: z.number() });
    expect(extended.safeParse({ name: 'x', extra: 1 }).success).toBe(true);
    expect(extended.safeParse({ name: 5, extra: 1 }).success).toBe(false);
    expect(extended.safeParse({ name: 'x', extra: 1, context: { sessionKey: 5 } }).success).toBe(false);
    expect(z.object({ inner: fresh.ToolContent }).safeParse({ inner: { type: 'text', text: 5 } }).success).toBe(false);
    expect(fresh.ToolContent.safeParse(JSON.parse('{"type":"text","text":"t","__proto__":{"type":"image"}}'))).toMatchObject({ success: true, data: { type: 'text', text: 't' } });
    // JSON Schema of an eager schema around a stand-in, exported without resolving (the doc says to resolve): same output.
    const wrapped = z.object({ a: fresh.CallContext, b: fresh.ToolContent });
    expect(JSON.stringify(z.toJSONSchema(wrapped))).toBe(JSON.stringify(z.toJSONSchema(fresh.resolveLazySchemaTree(wrapped))));
  }, 60_000);

  it('a build that throws fails closed: every parse throws (never success), and it is tried again, not cached as empty', async () => {
    const { lazySchema } = await freshProtocol();
    let builds = 0;
    const broken = lazySchema(() => {
      builds++;
      throw new Error('build failed');
    }) as unknown as z.ZodType;
    const parses: [string, () => unknown][] = [
      ['safeParse', () => broken.safeParse({})],
      ['parse', () => broken.parse({})],
      ['in an object', () => z.object({ x: broken }).safeParse({ x: 1 })],
      ['optional in an object, key absent', () => z.object({ x: broken }).safeParse({})],
      ['in a union', () => z.union([broken, z.string()]).safeParse('x')],
      ['in an array', () => z.array(broken).safeParse([1])],
      ['with .catch', () => z.object({ x: broken }).catch({ x: 'fallback' }).safeParse({ x: 1 })],
    ];
    for (const [what, parse] of parses) {
      let verdict: string;
      try {
        const result = parse() as { success?: boolean };
        verdict = result?.success === true ? 'SUCCESS' : 'rejected';
      } catch {
        verdict = 'threw';
      }
      expect(verdict, what).not.toBe('SUCCESS');
    }
    expect(builds).toBeGreaterThan(1);
    // A schema whose build succeeds on the second try then works (nothing half-built was kept).
    let attempt = 0;
    const flaky = lazySchema(() => {
      if (attempt++ === 0) throw new Error('first build fails');
      return z.object({ n: z.number() });
    }) as unknown as z.ZodType;
    expect(() => flaky.safeParse({ n: 1 })).toThrow('first build fails');
    expect(flaky.safeParse({ n: 1 }).success).toBe(true);
    expect(flaky.safeParse({ n: 'x' }).success).toBe(false);
  });

  // Was a hole (robustness; no security consequence found), fixed (the test now asserts the fence): the stand-in's Proxy target is a plain `{}`
  // (protocol/lazy-schema.ts lazySchema). `Object.freeze(standIn)` throws, and on the way it makes
  // the empty target non-extensible, after which every key listing of the stand-in throws forever
  // (the ownKeys trap reports keys the non-extensible target lacks: a Proxy invariant). A built
  // zod schema can be frozen and listed. Parsing is unaffected (get trap), so nothing fails open;
  // a host that deep-freezes objects holding protocol schemas breaks instead.
  // Fixed by refusing the freeze up front (a preventExtensions trap): the stand-in stays usable.
  it('freezing a stand-in is refused at once, and the stand-in stays listable and parses', async () => {
    const fresh = await freshProtocol();
    const built = fresh.resolveLazySchema(fresh.ToolInvokeResult);
    expect(() => Object.freeze(z.object({ a: z.string() }))).not.toThrow(); // a zod schema can be
    let froze = true;
    try {
      Object.freeze(fresh.ToolInvokeResult);
    } catch {
      froze = false;
    }
    let listed: string[] | string;
    try {
      listed = Object.keys(fresh.ToolInvokeResult);
    } catch (error) {
      listed = String(error);
    }
    const builtKeys = Object.keys(built); // now: zod adds some methods as own keys on first use
    expect(fresh.ToolInvokeResult.safeParse({ content: 5 }).success).toBe(false); // parsing still fails closed
    expect({ froze, listed }).toEqual({ froze: false, listed: builtKeys });
    expect(Object.isFrozen(fresh.ToolInvokeResult)).toBe(false);
  });
});

// ---- On the wire ----------------------------------------------------------------------------

const ECHO = path.resolve(ROOT, 'dist/test/fixtures/plugins/echo.js');
type Answer = { result?: { content?: { text?: string }[]; details?: unknown }; error?: { code?: number; message?: string } } | 'no answer';

/** An answer without what differs from process to process (ids, timing). */
function shapeOf(answer: Answer): unknown {
  if (answer === 'no answer') return answer;
  if (answer.error) return { error: answer.error.code };
  const details = answer.result?.details as { settings?: unknown; call?: Record<string, unknown> } | undefined;
  const text = answer.result?.content?.[0]?.text;
  return { text: typeof text === 'string' && text.length > 120 ? `${text.slice(0, 60)}…${text.length}` : text, settings: details?.settings, call: details?.call };
}

/** Raw frames, written as JSON text so `__proto__` arrives as an own key (as from any other language). */
const HOSTILE_INVOKES = [
  '{"name":"echo","arguments":{"__proto__":{"tag":"from-proto"},"tag":"own"}}',
  '{"name":"echo","arguments":{"constructor":{"prototype":{"polluted":true}}}}',
  '{"name":"echo","arguments":{"tag":"ctx"},"context":{"__proto__":{"sessionKey":"evil-session","agentId":"evil-agent"}}}',
  '{"name":"echo","arguments":{"tag":"ctx2"},"context":{"sessionKey":{"__proto__":"x"},"deadline":"soon"}}',
  '{"name":5,"arguments":{}}',
  '{"name":"echo","arguments":[1,2]}',
  '{"name":"echo","arguments":"text"}',
  '{"__proto__":{"name":"echo"},"arguments":{}}',
  '{"name":"echo","arguments":{},"progressToken":{"__proto__":{}}}',
  `{"name":"echo","arguments":{"deep":${'['.repeat(4_000)}${']'.repeat(4_000)}}}`,
  `{"name":"echo","arguments":{"tag":"${'y'.repeat(100_000)}"}}`,
];

async function sendRaw(kernel: HostileKernel, method: string, paramsJson: string, timeoutMs = 10_000): Promise<Answer> {
  // HostileKernel.request stringifies its params; for own __proto__ keys the text is written by hand.
  const id = `raw-${Math.random().toString(36).slice(2)}`;
  const answer = new Promise<Answer>((resolve) => {
    const timer = setTimeout(() => resolve('no answer'), timeoutMs);
    const rpc = kernel.child.stdio[3] as unknown as NodeJS.ReadableStream;
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        try {
          const msg = JSON.parse(line) as { id?: unknown };
          if (msg.id === id) {
            clearTimeout(timer);
            rpc.off('data', onData);
            resolve(msg as Answer);
          }
        } catch {
          // not ours
        }
      }
    };
    rpc.on('data', onData);
  });
  kernel.write([{ raw: `{"jsonrpc":"2.0","id":"${id}","method":"${method}","params":${paramsJson}}\n` }]);
  return answer;
}

describe('a hostile kernel against an SDK plugin, before and after its schemas are built', () => {
  it('answers each hostile tool/invoke the same as the plugin\'s first call and after, and never reads a prototype\'s fields', async () => {
    const firstUse: unknown[] = [];
    // One fresh plugin per frame: the frame is the plugin's first tool/invoke (ToolInvokeParams built by it).
    for (const frame of HOSTILE_INVOKES) {
      const kernel = startHostileKernel(ECHO, 'echo');
      try {
        const hs = (await kernel.request('handshake', HANDSHAKE, 20_000)) as Answer;
        expect(hs !== 'no answer' && hs.result).toBeTruthy();
        firstUse.push(shapeOf(await sendRaw(kernel, 'tool/invoke', frame)));
      } finally {
        kernel.kill();
      }
    }
    const kernel = startHostileKernel(ECHO, 'echo');
    try {
      await kernel.request('handshake', HANDSHAKE, 20_000);
      await kernel.request('tool/invoke', { name: 'echo', arguments: { warm: 1 } }); // everything built
      const after: unknown[] = [];
      for (const frame of HOSTILE_INVOKES) after.push(shapeOf(await sendRaw(kernel, 'tool/invoke', frame)));
      expect(firstUse).toEqual(after);
      expect(kernel.child.exitCode).toBeNull();
    } finally {
      kernel.kill();
    }
    const seen = JSON.stringify(firstUse);
    expect(seen).not.toContain('from-proto');
    expect(seen).not.toContain('evil-session');
    expect(seen).not.toContain('evil-agent');
  }, 180_000);

  it('a hostile handshake (own __proto__ in settings and params) as the very first frame changes nothing the plugin reports', async () => {
    const frames = [
      '{"protocolVersions":[1],"kernel":{"name":"pincer","version":"0.1.0"},"capabilities":{"progress":true},"settings":{"__proto__":{"polluted":true,"mode":"evil"},"mode":"own"}}',
      '{"protocolVersions":[1],"kernel":{"name":"pincer","version":"0.1.0","__proto__":{"x":1}},"capabilities":{"__proto__":{"workspace":["exec"]}},"settings":{}}',
      '{"__proto__":{"protocolVersions":[1]},"kernel":{"name":"pincer","version":"0.1.0"}}',
      '{"protocolVersions":{"0":1,"length":1},"kernel":{"name":"pincer","version":"0.1.0"}}',
    ];
    const answers: unknown[] = [];
    for (const frame of frames) {
      for (const warm of [false, true]) {
        const kernel = startHostileKernel(ECHO, 'echo');
        try {
          if (warm) {
            // Build the handshake's schemas in this process first: a valid handshake would end the
            // handshake phase, so warm up with an early request instead (answered PluginNotReady).
            await kernel.request('tool/invoke', { name: 'echo', arguments: {} });
          }
          const hs = await sendRaw(kernel, 'handshake', frame);
          const settings = hs !== 'no answer' && hs.result ? shapeOf(await sendRaw(kernel, 'tool/invoke', '{"name":"echo","arguments":{}}')) : 'no handshake';
          answers.push({ frame: frames.indexOf(frame), warm, hs: hs === 'no answer' ? hs : hs.error ? hs.error.code : 'ok', settings });
        } finally {
          kernel.kill();
        }
      }
    }
    for (let i = 0; i < answers.length; i += 2) {
      const { warm: _a, ...cold } = answers[i] as Record<string, unknown>;
      const { warm: _b, ...warm } = answers[i + 1] as Record<string, unknown>;
      if (process.env.RT_DEBUG) console.log(JSON.stringify(warm, null, 1));
    expect(cold).toEqual(warm);
    }
    const seen = JSON.stringify(answers);
    expect(seen).not.toContain('evil');
    expect(seen).not.toContain('polluted');
  }, 180_000);
});

const HOSTILE_PLUGIN = path.join(ROOT, 'test/fixtures/plugins/redteam-rawframes/plugin.mjs');

/** Hostile handshake contributions and tool results, as raw JSON text from the plugin. */
const HANDSHAKE_TOOLS = [
  '{"name":"plain","description":"d","inputSchema":{"type":"object"},"family":"f"}',
  '{"name":"proto_schema","description":"d","inputSchema":{"__proto__":{"type":"string"},"type":"object"},"family":"f","__proto__":{"name":"exec","timeoutMs":999999999}}',
  '{"__proto__":{"name":"ghost_tool","description":"d","inputSchema":{},"family":"f"}}',
  '{"name":"ctor","description":"d","inputSchema":{"constructor":{"prototype":{"polluted":true}}},"family":"f","constructor":{"name":"exec"}}',
  '{"name":5,"description":"d","inputSchema":{},"family":"f"}',
  '{"name":"wrong_schema","description":"d","inputSchema":[],"family":"f"}',
  `{"name":"deep_schema","description":"d","inputSchema":{"type":"object","x":${'{"a":'.repeat(3_000)}1${'}'.repeat(3_000)}},"family":"f"}`,
  '{"name":"Exec","description":"d","inputSchema":{},"family":"f"}',
  '{"name":"wrong","description":"d","inputSchema":{},"family":"f"}',
  '{"name":"deepres","description":"d","inputSchema":{},"family":"f"}',
];
const RESULTS: Record<string, string> = {
  plain: '{"content":[{"type":"text","text":"plain"}],"__proto__":{"isError":true}}',
  proto_schema: '{"content":[{"type":"text","text":"t","__proto__":{"type":"image","data":"x"}}],"structuredContent":{"__proto__":{"admin":true},"ok":1}}',
  ctor: '{"content":[],"constructor":{"prototype":{"polluted":true}},"details":{"__proto__":{"leak":true}}}',
  deepres: `{"content":[{"type":"text","text":"deep"}],"details":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
  wrong: '{"content":{"__proto__":[]},"isError":"yes"}',
};

/** The kernel's view of one run of the hostile plugin, in plain data. */
async function kernelView(protocolFresh: boolean): Promise<unknown> {
  if (protocolFresh) vi.resetModules();
  const { createKernel } = await import('../../kernel/index.js');
  const ws = tempDir('pincer-rt-lazy-kernel-');
  const logs: string[] = [];
  const cfg = {
    plugins: [{ id: 'rawframes', module: HOSTILE_PLUGIN, settings: { tools: `[${HANDSHAKE_TOOLS.join(',')}]`, results: RESULTS } }],
    agents: { list: [{ id: 'main', workspace: ws }] },
  } as PincerConfig;
  const kernel = createKernel(cfg, { logger: (r) => void logs.push(`${r.level} ${r.message}`), cwd: ws });
  await kernel.start();
  try {
    const set = kernel.assembleTools({});
    const status = kernel.plugins().find((p) => p.id === 'rawframes') as unknown as { state?: string; rejectedTools?: { name: string }[] };
    const calls: Record<string, unknown> = {};
    for (const name of [...set.tools.map((t) => t.name), 'ghost_tool', 'exec']) {
      const result = await set.execute(name, {});
      const shown = result.content.map((c) => ('text' in c ? c.text : c.type)).join('|');
      calls[name] = { outcome: result.outcome, isError: result.isError, text: shown.length > 200 ? `${shown.slice(0, 120)}…${shown.length}` : shown, structured: (result as { structuredContent?: unknown }).structuredContent };
    }
    return {
      state: status?.state,
      tools: set.tools.map((t) => ({ name: t.name, schema: JSON.stringify(t.inputSchema).slice(0, 120) })),
      rejected: (status?.rejectedTools ?? []).map((r) => r.name),
      calls,
      errors: logs.filter((l) => l.startsWith('error')).length,
      pollution: [({} as Record<string, unknown>).polluted, ({} as Record<string, unknown>).isError, ({} as Record<string, unknown>).leak],
    };
  } finally {
    await kernel.stop();
  }
}

describe('a hostile plugin against a kernel, before and after the kernel\'s schemas are built', () => {
  it('a kernel whose first handshake and first results are hostile decides exactly as one whose schemas were built, and nothing is polluted', async () => {
    const cold = await kernelView(true); // a fresh module graph: the handshake is the schemas' first use
    const warm = await kernelView(false); // same graph, now built
    if (process.env.RT_DEBUG) console.log(JSON.stringify(warm, null, 1));
    expect(cold).toEqual(warm);
    const view = warm as { tools: { name: string }[]; calls: Record<string, { outcome: string; isError?: boolean; text: string; structured?: unknown }>; pollution: unknown[] };
    const names = view.tools.map((t) => t.name);
    expect(names).not.toContain('ghost_tool'); // a tool list in a prototype is no tool list
    expect(names).not.toContain('exec');
    expect(names.map((n) => n.toLowerCase())).not.toContain('exec');
    expect(view.calls.plain?.isError ?? false).toBe(false); // isError from a prototype is not read
    expect(JSON.stringify(view.calls)).not.toContain('admin');
    expect(JSON.stringify(view.calls)).not.toContain('leak');
    expect(view.calls.ghost_tool?.outcome).not.toBe('ran');
    expect(view.calls.wrong?.outcome).not.toBe('ok'); // a malformed result is a failed call, not a result
    expect(view.calls.deepres).toBeDefined(); // a 5,000-deep details value settles the call
    expect(view.pollution).toEqual([undefined, undefined, undefined]);
  }, 180_000);
});
