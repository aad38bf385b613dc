/**
 * A plugin's declared confinement, read from its static manifest before it starts (the
 * handshake comes too late: the sandbox is built before the process exists). Bundled plugins'
 * manifests live in the package's `plugins/<id>/`, beside their sources, not beside `dist/`.
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PluginConfinement } from '../../protocol/v1/confinement.js';
import type { PluginConfig } from '../host/config.js';
import { KernelError, describeIssues } from '../host/errors.js';
import { MANIFEST_FILE, manifestPath } from '../host/manifest.js';

/** The package this kernel runs from (the folder with package.json). */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

const PACKAGE_ROOT = packageRoot();

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** The bundled plugin id of a module path (`<package>/dist/plugins/<id>/src/main.js`), if it is one. */
export function bundledPluginId(config: PluginConfig): string | undefined {
  if (!config.module) return undefined;
  const rel = path.relative(real(path.join(PACKAGE_ROOT, 'dist', 'plugins')), real(path.resolve(config.cwd ?? '.', config.module)));
  const [id, ...rest] = rel.split(path.sep);
  return id && !id.startsWith('..') && !path.isAbsolute(rel) && rest.length > 0 ? id : undefined;
}

/** The configured or adjacent manifest, else a bundled plugin's own. */
export function declarationManifest(config: PluginConfig): string | undefined {
  const found = manifestPath(config);
  if (found) return found;
  const bundled = bundledPluginId(config);
  const file = bundled ? path.join(PACKAGE_ROOT, 'plugins', bundled, MANIFEST_FILE) : undefined;
  return file && existsSync(file) ? file : undefined;
}

/** The manifest's `confinement` block, undefined when the plugin declares none. */
export function readDeclaredConfinement(config: PluginConfig): PluginConfinement | undefined {
  const file = declarationManifest(config);
  if (!file) return undefined;
  let raw: unknown;
  try {
    raw = (JSON.parse(readFileSync(file, 'utf8')) as { confinement?: unknown }).confinement;
  } catch (cause) {
    throw new KernelError('INVALID_MANIFEST', `plugin "${config.id}": cannot read manifest ${file}: ${(cause as Error).message}`, { pluginId: config.id, cause });
  }
  if (raw === undefined) return undefined;
  const parsed = PluginConfinement.safeParse(raw);
  if (!parsed.success) {
    throw new KernelError('INVALID_MANIFEST', `plugin "${config.id}": manifest ${file} has an invalid "confinement": ${describeIssues(parsed.error)}`, { pluginId: config.id, cause: parsed.error });
  }
  return parsed.data;
}
