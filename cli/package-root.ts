/**
 * Where the running Pincer package lives (the folder with its package.json), found by walking up
 * from this module: `dist/cli/` when built or installed, `cli/` under a TS test runner. `init`
 * and `plugin new` write absolute paths into it, so a config or a plugin works from any folder.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface PackageJson {
  name?: string;
  version?: string;
}

function readPackageJson(dir: string): PackageJson | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
  } catch {
    return undefined;
  }
}

/** The package root, or undefined when this code does not run from a `pincer` package. */
export function packageRoot(from = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && readPackageJson(dir)?.name === 'pincer') return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

export function packageVersion(): string {
  const root = packageRoot();
  return (root && readPackageJson(root)?.version) || '0.0.0';
}

/** A bundled plugin's compiled entry in the package. */
export function bundledPluginModule(root: string, id: string): string {
  return join(root, 'dist', 'plugins', id, 'src', 'main.js');
}
