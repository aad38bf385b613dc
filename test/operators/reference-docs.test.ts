import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_EXIT_CODES } from '../../cli/errors.js';
import { KERNEL_CALL_CODES } from '../../kernel/adapter/call-result.js';
import { KERNEL_ERROR_CODES } from '../../kernel/host/errors.js';
import { NODE_ERROR_CODES, ProtocolErrorCodes, TURN_REFUSAL_REASONS, WORKSPACE_ERROR_CODES } from '../../protocol/index.js';
import { STORE_ERROR_CODES } from '../../sdk/store/index.js';
import { stalePages } from '../../scripts/reference/build.js';
import * as catalog from '../../scripts/reference/error-catalog.js';
import { scanErrorClasses } from '../../scripts/reference/error-class-scan.js';

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
    expect(sorted(Object.keys(catalog.STORE_ERRORS))).toEqual(sorted(STORE_ERROR_CODES));
    expect(sorted(Object.keys(catalog.TURN_REFUSALS))).toEqual(sorted(TURN_REFUSAL_REASONS));
  });

  it('has an entry for every code any error class in the source can carry, so the catalog cannot drift', () => {
    const classes = scanErrorClasses(root);
    // The scan reads inline unions, aliases across files and code lists: a few it must see.
    expect(classes.find((c) => c.className === 'RunContextError')?.codes).toContain('MEMORY_WRITE_PATH_INVALID');
    expect(classes.find((c) => c.className === 'StoreError')?.codes).toContain('STORE_LOCKED');
    expect(classes.find((c) => c.className === 'HookFilterError')?.codes).toEqual(['INVALID_HOOK_FILTER']);
    const catalogued = new Set((Object.values(catalog) as Record<string, unknown>[]).flatMap((family) => Object.keys(family)));
    const missing = classes.flatMap((c) => c.codes.filter((code) => !catalogued.has(code)).map((code) => `${c.className} (${c.file}): ${code}`));
    expect(missing, 'add these to scripts/reference/error-catalog.ts').toEqual([]);
    // An open code is read from the class's constructions: FamilyToolError's string codes are
    // checked above; PluginError carries a wire error number (the wire errors). A new open class must be judged here.
    expect(classes.find((c) => c.className === 'FamilyToolError')?.codes).toContain('UNKNOWN_NODE');
    expect(classes.filter((c) => c.open).map((c) => `${c.className}: ${c.open}`)).toEqual(['FamilyToolError: string', 'PluginError: number']);
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
