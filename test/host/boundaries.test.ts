import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CrashWindow } from '../../kernel/host/supervise.js';
import { ROOT } from './helpers.js';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });
}
const imports = (file: string): string[] => [...readFileSync(file, 'utf8').matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]!);
const resolved = (file: string, spec: string): string => (spec.startsWith('.') ? path.relative(ROOT, path.resolve(path.dirname(file), spec)) : spec);

describe('import boundaries of the plugin machinery', () => {
  it('keeps the SDK plugin side and the protocol free of kernel imports', () => {
    const dirs = ['sdk/plugin', 'sdk/serve', 'sdk/testing', 'protocol'].map((d) => path.join(ROOT, d));
    for (const file of [...dirs.flatMap(files), path.join(ROOT, 'sdk/plugin-api.ts')]) {
      for (const spec of imports(file)) expect(resolved(file, spec), file).not.toMatch(/^(kernel|plugins)\//);
    }
  });

  it('keeps the plugin host free of SDK and plugin imports', () => {
    for (const file of files(path.join(ROOT, 'kernel/host'))) {
      for (const spec of imports(file)) expect(resolved(file, spec), file).not.toMatch(/^(sdk|plugins)\//);
    }
  });

  it('keeps the protocol free of process I/O beyond the stream codec', () => {
    for (const file of files(path.join(ROOT, 'protocol/v1'))) {
      for (const spec of imports(file)) expect(spec, file).not.toMatch(/^(node:child_process|node:net|execa)$/);
    }
  });
});

describe('the crash window', () => {
  const policy = { maxCrashes: 3, windowMs: 1_000, backoffBaseMs: 100, backoffMaxMs: 350 };

  it('gives up at the third crash inside the window, not when crashes are spread out', () => {
    const w = new CrashWindow(policy);
    expect(w.record(0)).toBe(false);
    expect(w.record(500)).toBe(false);
    expect(w.record(900)).toBe(true);
    const spread = new CrashWindow(policy);
    expect([0, 1_100, 2_200, 3_300].map((t) => spread.record(t))).toEqual([false, false, false, false]);
  });

  it('backs off exponentially up to the cap', () => {
    const w = new CrashWindow(policy);
    expect([1, 2, 3, 4].map((n) => w.backoffMs(n))).toEqual([100, 200, 350, 350]);
  });
});
