import { realpathSync } from 'node:fs';
import path from 'node:path';

export interface HostMapping {
  hostRoot: string;
  containerRoot: string;
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/**
 * On `local`, commands run on the host and see host paths (`pwd` prints one), so `cwd` takes
 * them back: an absolute host path inside a mapping becomes its workspace path, which then
 * passes the same admission as any other. Relative and workspace paths pass through; so does
 * anything outside every mapping, for the guard to refuse.
 */
export function workspacePathOfHostPath(cwd: string, mappings: readonly HostMapping[]): string {
  if (!path.isAbsolute(cwd)) return cwd;
  const roots = mappings.flatMap((m) => [m.hostRoot, realOrSelf(m.hostRoot)].map((hostRoot) => ({ hostRoot, containerRoot: m.containerRoot })));
  roots.sort((a, b) => b.hostRoot.length - a.hostRoot.length); // the deepest root wins
  for (const { hostRoot, containerRoot } of roots) {
    const rel = path.relative(hostRoot, cwd);
    const outside = rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
    if (!outside) return path.posix.join(containerRoot, ...rel.split(path.sep));
  }
  return cwd;
}
