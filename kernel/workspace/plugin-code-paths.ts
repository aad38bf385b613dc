/**
 * A plugin allowed to run from inside a workspace (`allowInsideWorkspace`: set by hand for plugin
 * development, or by the embedded default for Pincer's own checkout) still must not be editable by
 * the agent working there: one `write` to its entry file would run on the host at the plugin's next
 * start. So what the kernel executes for such a plugin becomes protected paths of that workspace:
 * the fs tools refuse to change them (PROTECTED_PATH) and workspace-write commands see them read-only.
 *
 * What the kernel executes is more than the entry file (it imports its neighbours, its package's
 * other code and `node_modules`), and the kernel cannot know every import. The rule is coarse on
 * purpose: the workspace's top-level entry that holds each code path (`dist/` for a checkout's
 * bundled plugins, `plugins/` for a plugin developed under `plugins/<id>/`), the nearest
 * `package.json` (module type, `imports`), every `node_modules` between the code and the workspace
 * root, and the manifest file itself.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { PluginConfigSchema, type PluginConfig, type PluginConfigInput } from '../host/config.js';
import { defaultStateDir, pluginDataDirPath } from '../host/data-dir.js';
import { manifestPath } from '../host/manifest.js';
import { canonicalPath, pluginCodePaths } from '../host/plugin-location.js';

/** `file` relative to `dir` in POSIX form when it lies strictly inside, else undefined. */
function inside(dir: string, file: string): string | undefined {
  const rel = path.relative(dir, file);
  if (!rel || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

const isDirectory = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/** The protected entries for one code path `rel` (inside `root`, which it lies in). */
function codeEntries(root: string, rel: string): string[] {
  const entries = [rel.split('/')[0]!];
  const segments = rel.split('/');
  // Directories from the code's own up to the workspace root (exclusive of the code path itself unless a directory).
  let depth = isDirectory(path.join(root, ...segments)) ? segments.length : segments.length - 1;
  let nearestPackage: string | undefined;
  for (; depth >= 0; depth -= 1) {
    const dir = segments.slice(0, depth);
    if (existsSync(path.join(root, ...dir, 'node_modules'))) entries.push([...dir, 'node_modules'].join('/'));
    if (nearestPackage === undefined && existsSync(path.join(root, ...dir, 'package.json'))) nearestPackage = [...dir, 'package.json'].join('/');
  }
  if (nearestPackage) entries.push(nearestPackage);
  return entries;
}

/** Where the plugin process starts: its configured `cwd`, else its data directory (as the host starts it). */
function startDir(config: PluginConfig, stateDir: string): string {
  return config.cwd ? path.resolve(config.cwd) : pluginDataDirPath(stateDir, config.id);
}

/**
 * For each workspace, the workspace-relative paths holding the code of the plugins allowed to run
 * from inside a workspace. Entries that fail to parse are skipped here: the host refuses them itself.
 */
export function createPluginCodePaths(plugins: readonly PluginConfigInput[], stateDir = defaultStateDir()): (workspaceDir: string) => string[] {
  const allowed = plugins.flatMap((entry) => {
    if (entry.allowInsideWorkspace !== true) return [];
    const parsed = PluginConfigSchema.safeParse(entry);
    if (!parsed.success) return [];
    const manifest = manifestPath(parsed.data);
    return [{ code: pluginCodePaths(parsed.data, startDir(parsed.data, stateDir)), manifest }];
  });
  return (workspaceDir) => {
    if (allowed.length === 0) return [];
    const roots = [...new Set([path.resolve(workspaceDir), canonicalPath(workspaceDir)])];
    const out = new Set<string>();
    for (const { code, manifest } of allowed) {
      for (const p of code) {
        // As written and after symlinks: a symlink into the workspace must not leave the real files editable.
        for (const form of new Set([path.resolve(p), canonicalPath(p)])) {
          for (const root of roots) {
            const rel = inside(root, form);
            if (rel === undefined) continue;
            for (const entry of p === manifest ? [rel] : codeEntries(root, rel)) out.add(entry);
          }
        }
      }
    }
    // An entry below another adds nothing (and each is one more read-only mount per command).
    return [...out].filter((entry) => ![...out].some((other) => entry.startsWith(`${other}/`)));
  };
}
