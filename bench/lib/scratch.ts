/**
 * Scratch directories for benchmark kernels. A kernel's workspace defaults to its cwd, and no
 * plugin may start from inside a workspace, so every benchmark kernel gets a scratch cwd outside
 * this checkout (where the built plugins live).
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface Scratch {
  readonly dir: string;
  remove(): void;
}

export function scratchDir(prefix: string): Scratch {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), `pincer-bench-${prefix}-`)));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const quietLogger = (): void => undefined;
