/**
 * fast-check arbitraries for hostile ndjson frames, for either side of the wire: lines that are
 * not JSON or not JSON-RPC (fatal framing errors on the kernel side), and JSON-RPC messages that
 * are well framed but wrong in every other way: unknown methods, known methods with params of the
 * wrong types, ids of odd types, responses for ids never sent, deep nesting, split writes.
 */
import fc from 'fast-check';
import { PROTOCOL_V1_METHODS } from '../../protocol/v1/registry.js';

/** A frame as the hostile side writes it: text (no newline added), or raw bytes. */
export type Frame = { raw: string } | { b64: string };

/** Methods the given side sends (what the other side's handlers receive). */
export function methodsSentBy(side: 'kernel' | 'plugin'): string[] {
  const direction = side === 'kernel' ? 'kernel-to-plugin' : 'plugin-to-kernel';
  return PROTOCOL_V1_METHODS.filter((d) => d.kind !== 'progress' && (d.meta.direction === direction || d.meta.direction === 'both')).map((d) => (d as { method: string }).method);
}

const line = (value: unknown): Frame => ({ raw: `${JSON.stringify(value)}\n` });

/** Ids of every JSON type, and ones the receiver never sent. */
export const oddId = fc.oneof(fc.integer({ min: -5, max: 1e9 }), fc.string({ maxLength: 12 }), fc.constant(null), fc.double({ noNaN: true }), fc.boolean(), fc.constant({}), fc.constant([1]));

/** Params of any shape: JSON values, objects with wrongly typed fields, nothing. */
const oddParams = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(fc.constantFrom('name', 'arguments', 'id', 'path', 'session', 'token', 'value', 'level', 'message', 'tools', 'protocolVersions', 'settings', 'context'), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
  fc.constant(undefined),
);

/** Frames (one, or a message split in two) the receiver must survive without losing its other peers or its connection's later answers. */
export function survivableFrames(side: 'kernel' | 'plugin', options: { callId?: boolean; exclude?: readonly string[] } = {}): fc.Arbitrary<Frame[]> {
  const known = methodsSentBy(side).filter((m) => !options.exclude?.includes(m));
  const method = fc.oneof(fc.constantFrom(...known), fc.string({ maxLength: 24 }).filter((m) => !options.exclude?.includes(m)), fc.constantFrom('$/unknown', 'rpc.secret', '__proto__', 'constructor', 'toString'));
  const request = fc.record({ id: oddId, method, params: oddParams }).map(({ id, method, params }) => line({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
  const notification = fc.record({ method, params: oddParams }).map(({ method, params }) => line({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) }));
  const oddError = fc.oneof(fc.record({ code: fc.integer(), message: fc.string() }), fc.record({ code: fc.string(), message: fc.integer() }), fc.jsonValue({ maxDepth: 2 }));
  const strayResponse = fc.oneof(
    fc.record({ id: oddId, result: fc.jsonValue({ maxDepth: 3 }) }).map((r) => line({ jsonrpc: '2.0', ...r })),
    fc.record({ id: oddId, error: oddError }).map((r) => line({ jsonrpc: '2.0', ...r })),
    oddId.map((id) => line({ jsonrpc: '2.0', id })),
  );
  const blank = fc.constantFrom<Frame>({ raw: '\n' }, { raw: '\r\n' }, { raw: '\n\n\n' });
  // One valid message written in two pieces: the receiver must reassemble it.
  const split = fc.tuple(fc.constantFrom(...known), fc.integer({ min: 1, max: 30 })).map(([m, cut]) => {
    const text = `${JSON.stringify({ jsonrpc: '2.0', method: m, params: { split: true } })}\n`;
    return [{ raw: text.slice(0, cut) }, { raw: text.slice(cut) }] as Frame[];
  });
  const deep = fc.integer({ min: 100, max: 5_000 }).map((depth) => ({ raw: `{"jsonrpc":"2.0","method":"$/log","params":${'['.repeat(depth)}${']'.repeat(depth)}}\n` }));
  const arbitraries: fc.Arbitrary<Frame | Frame[]>[] = [request, notification, strayResponse, blank, split, deep];
  // For the kernel side: answers to the call in flight ("$ID"), of the wrong shape.
  if (options.callId) {
    arbitraries.push(fc.jsonValue({ maxDepth: 3 }).map((result) => ({ raw: `{"jsonrpc":"2.0","id":$ID,"result":${JSON.stringify(result)}}\n` })));
    arbitraries.push(oddError.map((error) => ({ raw: `{"jsonrpc":"2.0","id":$ID,"error":${JSON.stringify(error)}}\n` })));
  }
  return fc.oneof(...arbitraries).map((f) => (Array.isArray(f) ? f : [f]));
}

/** Lines that are not JSON-RPC messages at all: a framing error for whoever reads them. */
export const garbageFrame: fc.Arbitrary<Frame> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 60 }).filter((s) => !s.includes('\n') && s.trim() !== '' && !isJsonRpc(s)).map((s) => ({ raw: `${s}\n` })),
  fc.jsonValue({ maxDepth: 2 }).filter((v) => typeof v !== 'object' || v === null || Array.isArray(v)).map((v) => line(v)),
  fc.tuple(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }), fc.constantFrom('1.0', 2, null, undefined)).map(([o, version]) => line({ ...o, jsonrpc: version })),
  fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes) => ({ b64: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(bytes.filter((b) => b !== 0x0a)), Buffer.from('\n')]).toString('base64') })),
);

function isJsonRpc(text: string): boolean {
  try {
    const v = JSON.parse(text) as { jsonrpc?: unknown };
    return typeof v === 'object' && v !== null && v.jsonrpc === '2.0';
  } catch {
    return false;
  }
}
