import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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
