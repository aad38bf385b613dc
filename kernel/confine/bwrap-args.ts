/**
 * The bubblewrap command line of one confined plugin. The sandbox starts empty: system
 * directories and the plugin's code read-only, its data directory read-write, what it declared,
 * a private /tmp, fresh /proc and /dev. The kernel's state directory (other plugins' data, the
 * audit log) is masked even when a declared path covers it.
 */
import path from 'node:path';
import type { ConfinementGrants } from '../../protocol/v1/confinement.js';
import { namespaceFlags } from './bwrap-probe.js';
import { SYSTEM_PATHS } from './code-roots.js';

/** Where the kernel's proxy socket appears inside the sandbox. */
export const SANDBOX_PROXY_SOCKET = '/run/pincer/proxy.sock';
/** The fd bubblewrap reads the seccomp program from (fd 3 is the RPC pipe). */
export const SECCOMP_FD = 4;

export interface SandboxLayout {
  grants: ConfinementGrants;
  /** Declared paths with placeholders replaced. */
  paths: ReadonlyArray<{ path: string; access: 'ro' | 'rw' }>;
  codeRoots: readonly string[];
  dataDir: string;
  stateDir: string;
  cwd: string;
  /** Host path of the plugin's proxy socket (declared `loopback` or `hosts`). */
  proxySocket?: string;
  /** A seccomp program will be supplied on SECCOMP_FD. */
  seccomp: boolean;
}

const depth = (p: string) => p.split('/').filter(Boolean).length;
const within = (child: string, root: string) => child === root || child.startsWith(root === '/' ? '/' : `${root}/`);

export function bwrapArgs(layout: SandboxLayout): string[] {
  const args = [...namespaceFlags()];
  if (layout.grants.network !== 'host') args.push('--unshare-net');
  const mounts: Array<{ path: string; flag: string }> = [
    ...SYSTEM_PATHS.map((p) => ({ path: p, flag: '--ro-bind-try' })),
    ...layout.codeRoots.map((p) => ({ path: p, flag: '--ro-bind-try' })),
    ...layout.paths.map((p) => ({ path: p.path, flag: p.access === 'rw' ? '--bind-try' : '--ro-bind-try' })),
  ];
  // Parents before children, so a narrower grant (rw workspace under a read-only /) wins; a
  // declared `/` comes before the fresh /proc, /dev and private /tmp, everything else after.
  mounts.sort((a, b) => depth(a.path) - depth(b.path));
  // A mount inside one of the same kind adds nothing, and bubblewrap cannot create its mount
  // point inside a read-only one (a declared `/` with /etc/localtime, a symlink, below it).
  const redundant = (m: (typeof mounts)[number], i: number) => {
    const parent = mounts.slice(0, i).filter((p) => p.path !== m.path && within(m.path, p.path)).pop();
    const remounted = parent?.path === '/' && ['/tmp', '/proc', '/dev'].some((fresh) => within(m.path, fresh));
    return parent !== undefined && parent.flag === m.flag && !remounted;
  };
  const kept = mounts.filter((m, i) => !redundant(m, i) && mounts.findIndex((o) => o.path === m.path) === i);
  for (const m of kept.filter((m) => m.path === '/')) args.push(m.flag, m.path, m.path);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  for (const m of kept.filter((m) => m.path !== '/')) args.push(m.flag, m.path, m.path);
  // Declared paths may cover the state directory; other plugins' data and the audit log stay hidden.
  const covers = (p: string) => mounts.some((m) => within(p, m.path));
  if (covers(layout.stateDir)) args.push('--tmpfs', layout.stateDir);
  args.push('--bind', layout.dataDir, layout.dataDir);
  if (!covers(layout.cwd) && layout.cwd !== layout.dataDir) args.push('--ro-bind-try', layout.cwd, layout.cwd);
  if (layout.proxySocket) args.push('--dir', path.dirname(SANDBOX_PROXY_SOCKET), '--bind', layout.proxySocket, SANDBOX_PROXY_SOCKET);
  if (layout.seccomp) args.push('--seccomp', String(SECCOMP_FD));
  args.push('--chdir', layout.cwd);
  return args;
}
