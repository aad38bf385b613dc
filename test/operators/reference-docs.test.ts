import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_EXIT_CODES } from '../../cli/errors.js';
import { KERNEL_CALL_CODES } from '../../kernel/adapter/call-result.js';
import { KERNEL_ERROR_CODES } from '../../kernel/host/errors.js';
import { NODE_ERROR_CODES, ProtocolErrorCodes, WORKSPACE_ERROR_CODES } from '../../protocol/index.js';
import { stalePages } from '../../scripts/reference/build.js';
import * as catalog from '../../scripts/reference/error-catalog.js';

const root = resolve(import.meta.dirname, '../..');
const sorted = (list: Iterable<string>) => [...list].sort();

describe('the generated reference', () => {
  it('is what the vocabulary and the error catalog render (regenerate: node dist/scripts/reference/build.js --write)', () => {
    expect(stalePages(root)).toEqual([]);
  });

  it('has an entry for every code in the code lists, and none that no list has', () => {
    expect(sorted(Object.keys(catalog.KERNEL_ERRORS))).toEqual(sorted(KERNEL_ERROR_CODES));
    expect(sorted(Object.keys(catalog.CALL_CODES))).toEqual(sorted(KERNEL_CALL_CODES));
    expect(sorted(Object.keys(catalog.WORKSPACE_ERRORS))).toEqual(sorted(WORKSPACE_ERROR_CODES));
    expect(sorted(Object.keys(catalog.NODE_ERRORS))).toEqual(sorted(NODE_ERROR_CODES));
    expect(sorted(Object.keys(catalog.PROTOCOL_ERRORS))).toEqual(sorted(Object.keys(ProtocolErrorCodes)));
    expect(sorted(Object.keys(catalog.CLI_ERRORS))).toEqual(sorted(Object.keys(CLI_EXIT_CODES)));
  });

  it('gives every code a cause and a fix', () => {
    const families = Object.values(catalog) as Record<string, { cause: string; fix: string }>[];
    const entries = families.flatMap((family) => Object.entries(family));
    expect(entries.length).toBeGreaterThan(100);
    for (const [code, { cause, fix }] of entries) {
      expect(cause.trim(), code).not.toBe('');
      expect(fix.trim(), code).not.toBe('');
    }
  });
});
