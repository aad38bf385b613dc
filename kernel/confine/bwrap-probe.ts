/**
 * Whether bubblewrap can confine plugins here: found, and able to create the namespaces we
 * use (a container without user namespaces, or a kernel that forbids them, cannot). Probed
 * once per kernel process and binary path, with the same flags a plugin gets.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

export interface BwrapStatus {
  available: boolean;
  /** The binary that works, when available. */
  path?: string;
  /** Why it is not available, in one line (missing, or what bwrap said). */
  reason?: string;
}

const DEFAULT_BWRAP = 'bwrap';
const probes = new Map<string, Promise<BwrapStatus>>();

function findOnPath(file: string, pathVar = process.env.PATH ?? ''): string | undefined {
  if (file.includes('/')) return path.resolve(file);
  for (const dir of pathVar.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, file);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The namespace flags every confined plugin gets; the probe uses the same. */
export function namespaceFlags(uid = process.getuid?.()): string[] {
  // As root inside, a nested bubblewrap (the local backend's commands) could not map users.
  const identity = uid === 0 ? ['--uid', '65534', '--gid', '65534'] : [];
  return ['--unshare-user', ...identity, '--unshare-ipc', '--unshare-pid', '--unshare-uts', '--unshare-cgroup-try', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
}

function run(file: string): Promise<BwrapStatus> {
  const args = [...namespaceFlags(), '--unshare-net', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', 'true'];
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 10_000, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } }, (error, _stdout, stderr) => {
      if (!error) return resolve({ available: true, path: file });
      const said = String(stderr).trim().split('\n').pop() || (error as Error).message;
      resolve({ available: false, reason: `${file} cannot create namespaces here: ${said}` });
    });
  });
}

/** Probes (once) whether `bwrap` (or the configured binary) works. */
export function probeBwrap(configured?: string): Promise<BwrapStatus> {
  const key = configured ?? DEFAULT_BWRAP;
  let probe = probes.get(key);
  if (!probe) {
    const file = findOnPath(key);
    probe = file ? run(file) : Promise.resolve({ available: false, reason: `bubblewrap (${key}) is not installed (Debian: apt-get install bubblewrap)` });
    probes.set(key, probe);
  }
  return probe;
}
