/**
 * What a confined plugin must see read-only to run at all: its code (for a JS module, its
 * package and every `node_modules` Node's resolution may walk to), the program it is started
 * with, and the shared system directories programs load from.
 */
import { existsSync, readdirSync, realpathSync } from 'node:fs';
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

/**
 * Where the linked packages of a `node_modules` folder really are: `npm install` of a `file:`
 * dependency, `npm link` and pnpm leave symbolic links there, and a link is a dead end inside
 * the sandbox unless its target is mounted too (a plugin from `pincer plugin new` links Pincer).
 */
function linkedPackages(nodeModules: string): string[] {
  const targets: string[] = [];
  const visit = (dir: string, depth: number) => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        const target = real(full);
        if (target !== full) targets.push(target);
      } else if (depth === 0 && entry.isDirectory() && entry.name.startsWith('@')) visit(full, 1); // @scope/name
    }
  };
  visit(nodeModules, 0);
  return targets;
}

/** Every path the plugin's code lives in, as written and resolved, de-duplicated. */
export function pluginCodeRoots(config: PluginConfig, startDir: string): string[] {
  const roots: string[] = [];
  const add = (p: string) => roots.push(p, real(p));
  if (config.module) {
    const entry = real(path.resolve(config.cwd ?? '.', config.module));
    const pkg = packageRootOf(entry);
    add(pkg);
    const above = ancestorNodeModules(pkg);
    above.forEach(add);
    [path.join(pkg, 'node_modules'), ...above].flatMap(linkedPackages).forEach(add);
    add(process.execPath);
  }
  for (const p of pluginCodePaths(config, startDir)) {
    if (p === startDir) continue; // the working directory is bound on its own
    // A script's imports are its neighbours: its folder, not just the file.
    add(config.command && !p.endsWith('.json') ? path.dirname(p) : p);
  }
  return [...new Set(roots)];
}
