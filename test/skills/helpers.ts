import fs, { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Temp directories removed after each test (call `cleanup` in afterEach). */
export class TempDirs {
  readonly #dirs: string[] = [];

  make(prefix = 'pincer-skills-'): string {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    this.#dirs.push(dir);
    return dir;
  }

  cleanup(): void {
    this.#dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  }
}

export function skillMd(description: string, extra = '', body = 'Do the thing.'): string {
  return `---\ndescription: ${JSON.stringify(description)}\n${extra}---\n${body}\n`;
}

/** Writes `files` (path → content) below `root`. */
export function writeTree(root: string, files: Record<string, string | Buffer>): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** Polls `check` until it returns a truthy value (generous deadline, no fixed sleeps). */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 20_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Runs `fn` with every `node:fs` function (sync, callback and promise forms) counting its
 * calls, ESM named imports included (`syncBuiltinESMExports`); returns the calls by name.
 */
export function countFsCalls(fn: () => void): Record<string, number> {
  const counts: Record<string, number> = {};
  const restore: (() => void)[] = [];
  for (const [target, prefix] of [[fs, ''], [fs.promises, 'promises.']] as const) {
    for (const [name, original] of Object.entries(target)) {
      if (typeof original !== 'function' || /^[A-Z]/.test(name)) continue;
      const key = prefix + name;
      (target as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
        counts[key] = (counts[key] ?? 0) + 1;
        return (original as (...a: unknown[]) => unknown).apply(this, args);
      };
      restore.push(() => ((target as Record<string, unknown>)[name] = original));
    }
  }
  syncBuiltinESMExports();
  try {
    fn();
  } finally {
    restore.forEach((undo) => undo());
    syncBuiltinESMExports();
  }
  return counts;
}
