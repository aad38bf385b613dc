/**
 * What a confined plugin must see read-only to run at all: its code (for a JS module, its
 * package and every `node_modules` Node's resolution may walk to), the program it is started
 * with, and the shared system directories programs load from.
 */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { PluginConfig } from '../host/config.js';
import { pluginCodePaths } from '../host/plugin-location.js';

/** Read-only system paths: programs, libraries, and the few /etc files they read (no secrets). */
export const SYSTEM_PATHS: readonly string[] = Object.freeze([
  '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32',
  '/etc/alternatives', '/etc/ld.so.cache', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/etc/localtime',
  '/etc/ssl', '/etc/ca-certificates', '/etc/passwd', '/etc/group', '/etc/nsswitch.conf', '/etc/hosts',
]);

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

/** The folder with the module's package.json, else the module's own folder. */
function packageRootOf(file: string): string {
  let dir = path.dirname(file);
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) return path.dirname(file);
    dir = parent;
  }
  return dir;
}

/** `node_modules` folders above `dir`, where Node looks for the package's dependencies. */
function ancestorNodeModules(dir: string): string[] {
  const found: string[] = [];
  for (let d = path.dirname(dir); ; d = path.dirname(d)) {
    const candidate = path.join(d, 'node_modules');
    if (existsSync(candidate)) found.push(candidate);
    if (path.dirname(d) === d) return found;
  }
}

/** Every path the plugin's code lives in, as written and resolved, de-duplicated. */
export function pluginCodeRoots(config: PluginConfig, startDir: string): string[] {
  const roots: string[] = [];
  const add = (p: string) => roots.push(p, real(p));
  if (config.module) {
    const entry = real(path.resolve(config.cwd ?? '.', config.module));
    const pkg = packageRootOf(entry);
    add(pkg);
    ancestorNodeModules(pkg).forEach(add);
    add(process.execPath);
  }
  for (const p of pluginCodePaths(config, startDir)) {
    if (p === startDir) continue; // the working directory is bound on its own
    // A script's imports are its neighbours: its folder, not just the file.
    add(config.command && !p.endsWith('.json') ? path.dirname(p) : p);
  }
  return [...new Set(roots)];
}
