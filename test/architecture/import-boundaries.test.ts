import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, dir))) {
    const path = join(dir, entry);
    if (statSync(join(root, path)).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Top-level folders each relative import of a file lands in. */
function importedAreas(file: string): { specifier: string; target: string }[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]);
  return specifiers
    .filter((s) => s.startsWith('.'))
    .map((specifier) => ({ specifier, target: relative(root, resolve(root, dirname(file), specifier)) }));
}

function violations(area: string, forbidden: (target: string) => boolean): string[] {
  return sourceFiles(area).flatMap((file) => importedAreas(file).filter(({ target }) => forbidden(target)).map(({ specifier }) => `${file} imports ${specifier}`));
}

describe('import boundaries', () => {
  it('keeps the kernel from importing any plugin, and lets it use only the pure policy part of the SDK and the protected-path mounts', () => {
    // sdk/protected-paths: one rule for holding protected paths under bubblewrap, applied by the
    // kernel to confined plugins and by the local backend to confined commands. sdk/journal/files:
    // the journal's file layout, which the audit trail writes and `pincer audit tail` reads.
    const shared = ['sdk/policy', 'sdk/protected-paths', 'sdk/journal/files.js'];
    expect(violations('kernel', (t) => t.startsWith('plugins/') || (t.startsWith('sdk/') && !shared.some((s) => t.startsWith(s))))).toEqual([]);
    expect(violations('sdk/protected-paths', (t) => t.startsWith('sdk/') && !t.startsWith('sdk/protected-paths') && t !== 'sdk/plugin/errors.js')).toEqual([]);
    expect(importedAreas('sdk/journal/files.ts')).toEqual([]); // node only: the kernel takes the layout, not the journal
  });

  it('keeps the SDK from importing the kernel or a plugin', () => {
    expect(violations('sdk', (t) => t.startsWith('kernel/') || t.startsWith('plugins/'))).toEqual([]);
  });

  it('keeps plugins from importing the kernel', () => {
    expect(violations('plugins', (t) => t.startsWith('kernel/'))).toEqual([]);
  });

  it('imports zod as a namespace everywhere a bundle is built from, so bundles keep only the parts of zod they use', () => {
    // `import { z }` binds zod's whole namespace object: every plugin bundle then carried all of
    // zod (583 KB with its locales and JSON Schema importer) and compiled it at each start.
    const named = ['protocol', 'sdk', 'kernel', 'plugins', 'cli', 'bench', 'test/fixtures'].flatMap((area) =>
      sourceFiles(area).filter((file) => /^import \{[^}]*\bz\b[^}]*\} from 'zod'/m.test(readFileSync(join(root, file), 'utf8'))),
    );
    expect(named).toEqual([]);
  });

  it('keeps the protocol free of imports from any other layer', () => {
    expect(violations('protocol', (t) => !t.startsWith('protocol/'))).toEqual([]);
  });

  it('keeps the CLI from importing any plugin except the MCP bridge state-file modules (pincer mcp): sandbox commands reach backends through the kernel (15.13)', () => {
    expect(violations('cli', (t) => t.startsWith('plugins/') && !t.startsWith('plugins/mcp-bridge/'))).toEqual([]);
    expect(violations('cli/sandbox', (t) => t.startsWith('plugins/'))).toEqual([]);
  });

  it('keeps the gate below the adapter: helpers both use live in kernel/shared, which imports neither nor anything above them (15.14)', () => {
    expect(violations('kernel/gate', (t) => t.startsWith('kernel/adapter/'))).toEqual([]);
    expect(violations('kernel/shared', (t) => ['kernel/adapter/', 'kernel/gate/', 'kernel/loop/', 'kernel/assembly/', 'kernel/host/'].some((up) => t.startsWith(up)))).toEqual([]);
  });

  it('finds imports at all (the check itself is not vacuous)', () => {
    expect(importedAreas('kernel/policy/pipeline.ts').some(({ target }) => target.startsWith('sdk/policy'))).toBe(true);
  });
});
