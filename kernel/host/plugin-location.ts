/**
 * A plugin's code must not live where an agent can write: an agent with only file tools could
 * append a line to the plugin's entry file in its workspace, and the next start of the plugin
 * would run it on the host. So every path a plugin is started from (module, manifest, working
 * directory, the command's executable and any argument naming an existing file) is checked
 * against the agents' workspaces and sandbox mounts, as written and after symlinks.
 */
import { accessSync, constants, existsSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { PluginConfig } from './config.js';
import { KernelError } from './errors.js';
import { manifestPath } from './manifest.js';
import type { PluginLogSink } from './plugin-log.js';

/** Resolves symlinks of the longest existing prefix (the rest may not exist yet). */
export function canonicalPath(p: string): string {
  let head = path.resolve(p);
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(head), ...tail);
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return path.resolve(p);
      tail.unshift(path.basename(head));
      head = parent;
    }
  }
}

function within(child: string, root: string): boolean {
  const rel = path.relative(root, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** `file` as the OS would find it on `PATH` (for a bare command name), or undefined. */
function onPath(file: string, pathVar: string | undefined, cwd: string): string | undefined {
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    const candidate = path.resolve(cwd, dir || '.', file);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Every path the plugin's code could come from, absolute. `cwd` is where the process starts (the
 * configured `cwd`, else its data directory): relative command arguments resolve there, while
 * `module` and `manifest` resolve against the configured `cwd` or the kernel's (as `spawn` does).
 */
export function pluginCodePaths(config: PluginConfig, cwd: string, pathVar = config.env.PATH ?? process.env.PATH): string[] {
  const paths: string[] = [];
  const argPaths = (args: readonly string[]): void => {
    for (const arg of args) {
      for (const value of [arg, arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : undefined]) {
        if (value && !value.includes('\0') && existsSync(path.resolve(cwd, value))) paths.push(path.resolve(cwd, value));
      }
    }
  };
  if (config.cwd) paths.push(cwd);
  if (config.module) {
    paths.push(path.resolve(config.cwd ?? '.', config.module));
    argPaths(config.args);
  } else if (config.command) {
    const [file, ...args] = config.command;
    const exe = file!.includes('/') || file!.includes('\\') ? path.resolve(cwd, file!) : onPath(file!, pathVar, cwd);
    if (exe) paths.push(exe);
    argPaths([...args, ...config.args]);
  }
  const manifest = manifestPath(config);
  if (manifest) paths.push(manifest);
  return paths;
}

/** The first of the plugin's paths inside one of `roots` (as written or after symlinks), or undefined. */
export function findPathInsideRoots(paths: readonly string[], roots: readonly string[]): { path: string; root: string } | undefined {
  const rootForms = roots.map((root) => ({ root, forms: [path.resolve(root), canonicalPath(root)] }));
  for (const p of paths) {
    const forms = [path.resolve(p), canonicalPath(p)];
    for (const { root, forms: rootPaths } of rootForms) {
      if (forms.some((f) => rootPaths.some((r) => within(f, r)))) return { path: p, root };
    }
  }
  return undefined;
}

/**
 * Refuses (PLUGIN_LOCATION_REFUSED) a plugin started from inside a workspace or sandbox mount,
 * unless its entry sets `allowInsideWorkspace`: then it returns the warning the caller must log.
 */
export function assertPluginLocation(config: PluginConfig, cwd: string, roots: readonly string[], log: PluginLogSink): string | undefined {
  const hit = findPathInsideRoots(pluginCodePaths(config, cwd), roots);
  if (!hit) return undefined;
  const where = `${hit.path} lies inside ${hit.root}, which an agent can write (a workspace or sandbox mount)`;
  if (config.allowInsideWorkspace) {
    return `DANGER: running plugin "${config.id}" although ${where}: "allowInsideWorkspace" is set, so an agent that edits these files runs its code on the host at the next start of the plugin`;
  }
  log.kernel('error', `plugin "${config.id}" was not started: ${where}. Install the plugin outside every workspace and sandbox mount; for plugin development only, set "allowInsideWorkspace": true on its entry`);
  throw new KernelError('PLUGIN_LOCATION_REFUSED', `plugin "${config.id}" was not started: ${where} (see docs/plugins.md, "Where plugins may live")`, { pluginId: config.id });
}
