/** The Node.js version against the package's `engines.node` (`>=20.19`). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { line, type DoctorLine } from './types.js';

function parts(version: string): number[] {
  return version.replace(/^v/, '').split('.').map((n) => Number.parseInt(n, 10) || 0);
}

/** `a >= b` for dotted versions. */
function atLeast(actual: string, wanted: string): boolean {
  const [a, b] = [parts(actual), parts(wanted)];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  }
  return true;
}

export function checkNode(root: string | undefined, version = process.version): DoctorLine {
  let range = '>=20.19';
  try {
    range = (JSON.parse(readFileSync(join(root ?? '', 'package.json'), 'utf8')) as { engines?: { node?: string } }).engines?.node ?? range;
  } catch {
    // the documented minimum
  }
  const minimum = /^>=\s*([\d.]+)$/.exec(range.trim())?.[1];
  if (!minimum) return line('node', 'version', 'warn', `Node.js ${version}; cannot read the required range "${range}"`);
  return atLeast(version, minimum)
    ? line('node', 'version', 'ok', `Node.js ${version} (needs ${minimum} or newer)`)
    : line('node', 'version', 'fail', `Node.js ${version} is older than ${minimum}`, `install Node.js ${minimum} or newer (e.g. from nodejs.org or with nvm install 20)`);
}
