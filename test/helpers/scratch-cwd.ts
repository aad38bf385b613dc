import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

let dir: string | undefined;

/**
 * A scratch directory to use as a test kernel's `cwd`. A kernel's default workspace is its
 * cwd, and the host refuses to start plugin code that lies inside a workspace: with the
 * repository root as cwd, the fixture plugins under `dist/` would all be refused.
 */
export function scratchCwd(): string {
  if (dir === undefined) {
    dir = mkdtempSync(path.join(tmpdir(), 'pincer-test-cwd-'));
    const made = dir;
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
  }
  return dir;
}
