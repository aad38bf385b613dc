import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './services.js';

/**
 * A workspace with the shapes the attack tests need: a file, a skills directory, and
 * symlinks pointing to /etc and to the root.
 */
export function makeWorkspace(): string {
  const ws = tempDir('ws');
  writeFileSync(join(ws, 'hello.txt'), 'hello world\n');
  mkdirSync(join(ws, 'skills', 'demo'), { recursive: true });
  writeFileSync(join(ws, 'skills', 'demo', 'SKILL.md'), '---\nname: demo\n---\nDo things.\n');
  mkdirSync(join(ws, 'src'));
  writeFileSync(join(ws, 'src', 'a.ts'), 'export const a = 1;\n');
  symlinkSync('/etc', join(ws, 'etc-link'));
  symlinkSync('/', join(ws, 'root-link'));
  symlinkSync('hello.txt', join(ws, 'inner-link'));
  return ws;
}
