import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  NdjsonDecoder,
  PROTOCOL_V1_METHODS,
  ProtocolErrorCodes,
  RESERVED_ERROR_RANGE,
  describeVersionMismatch,
  negotiateProtocolVersion,
  type DecodedFrame,
} from '../../protocol/index.js';
import { isProtocolSchemaCurrent } from '../../protocol/schema/build.js';

describe('the protocol v1 registry', () => {
  it('declares every method once, with params, a result for requests, docs and @since', () => {
    const names = PROTOCOL_V1_METHODS.map((d) => (d.kind === 'progress' ? `$/progress:${d.name}` : d.method));
    expect(new Set(names).size).toBe(names.length);
    for (const d of PROTOCOL_V1_METHODS) {
      expect(d.meta.doc.length, String(names)).toBeGreaterThan(20);
      expect(d.meta.since).toBe(1);
      if (d.kind === 'request') {
        expect(d.params).toBeInstanceOf(z.ZodType);
        expect(d.result).toBeInstanceOf(z.ZodType);
        expect(d.type.method).toBe(d.method);
      }
    }
  });

  it('uses the $/ prefix for protocol-level methods only', () => {
    const dollar = PROTOCOL_V1_METHODS.filter((d) => d.kind !== 'progress' && d.method.startsWith('$/')).map((d) => (d as { method: string }).method);
    expect(dollar.sort()).toEqual(['$/cancelRequest', '$/log', '$/ping', '$/progress', '$/shutdown']);
  });

  it('keeps Pincer error codes inside the reserved range', () => {
    for (const [name, code] of Object.entries(ProtocolErrorCodes)) {
      if (code > -32100) expect(code >= RESERVED_ERROR_RANGE.min && code <= RESERVED_ERROR_RANGE.max, name).toBe(true);
    }
  });

  it('has an up-to-date generated JSON Schema (node dist/protocol/schema/build.js --write)', () => {
    expect(isProtocolSchemaCurrent()).toBe(true);
  });

  it('negotiates the newest common version, and names both sides when there is none', () => {
    expect(negotiateProtocolVersion([1, 2, 3], [2, 3, 4])).toBe(3);
    expect(negotiateProtocolVersion([1], [2])).toBeUndefined();
    expect(describeVersionMismatch({ pluginId: 'p', kernelVersions: [2], pluginVersions: [1] })).toMatch(/\[1\]; this kernel speaks \[2\].*rebuild plugin "p"/);
  });
});

describe('ndjson framing', () => {
  const decode = (chunks: string[], max = 1_000): DecodedFrame[] => {
    const frames: DecodedFrame[] = [];
    const d = new NdjsonDecoder('peer', max, (f) => frames.push(f));
    for (const c of chunks) d.push(Buffer.from(c));
    return frames;
  };

  it('reassembles messages split across chunks and splits several in one chunk', () => {
    const frames = decode(['{"jsonrpc":"2.0","id":1,', '"result":1}\n{"jsonrpc":"2.0","method":"x"}\n\n']);
    expect(frames.map((f) => f.kind)).toEqual(['message', 'message']);
  });

  it('reports a non-JSON line with its bytes and carries on with the next line', () => {
    const frames = decode(['hello\n{"jsonrpc":"2.0","method":"x"}\n']);
    expect(frames[0]).toMatchObject({ kind: 'garbage', error: { message: expect.stringContaining('"hello"') } });
    expect(frames[1]!.kind).toBe('message');
  });

  it('drops a line over the cap without buffering it, and resynchronizes', () => {
    const frames = decode(['{"jsonrpc":"2.0","id":1,"result":"' + 'x'.repeat(2_000), 'x"}\n{"jsonrpc":"2.0","method":"y"}\n']);
    expect(frames[0]).toMatchObject({ kind: 'tooLarge', size: 2_037 });
    expect(frames[1]!.kind).toBe('message');
  });
});
