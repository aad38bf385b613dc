/**
 * The bubblewrap command line of one confined plugin. The sandbox starts empty: system
 * directories and the plugin's code read-only, its data directory read-write, what it declared,
 * a private /tmp, fresh /proc and /dev. The kernel's state directory (other plugins' data, the
 * audit log) is masked even when a declared path covers it.
 *
 * Mounts apply in order, each over what came before, so the order is the meaning: parents
 * before children (a narrower grant wins over a wider one), and for the same path the later
 * kind wins: system, then code, then what the plugin declared, in its order. The protected
 * paths of a workspace come after all of them, read-only, wherever a read-write grant covers
 * them: a plugin whose code root is the workspace (Pincer's own checkout as the workspace)
 * gets the workspace read-write and still not `.git`, the config or its own `dist/`.
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
  /** Declared paths with placeholders replaced, in declaration order. */
  paths: ReadonlyArray<{ path: string; access: 'ro' | 'rw' }>;
  codeRoots: readonly string[];
  /** Host paths held read-only wherever a read-write grant covers them (the workspaces' protected paths). */
  protectedPaths?: readonly string[];
  /** Directories between a workspace and a protected path below it: bound onto themselves, so they cannot be renamed. */
  protectedAncestors?: readonly string[];
  dataDir: string;
  stateDir: string;
  cwd: string;
  /** Host path of the plugin's proxy socket (declared `loopback` or `hosts`). */
  proxySocket?: string;
  /** The direct-channel sockets (kernel/host/direct-dirs.ts): the whole directory read-only, the plugin's own one read-write. */
  directChannel?: { root: string; own: string };
  /** A seccomp program will be supplied on SECCOMP_FD. */
  seccomp: boolean;
}

interface Mount {
  path: string;
  flag: '--ro-bind-try' | '--bind-try';
}

const depth = (p: string) => p.split('/').filter(Boolean).length;
/** `child` is `root` or lies below it, by name. */
export const within = (child: string, root: string) => child === root || child.startsWith(root === '/' ? '/' : `${root}/`);
const FRESH = ['/tmp', '/proc', '/dev'];

/** The mount that decides what `p` is once `mounts` (in mount order) are applied. */
const coveringMount = (mounts: readonly Mount[], p: string) => mounts.filter((m) => within(p, m.path)).pop();

/** Grants in mount order: by depth, and for one path only the last-declared kind. */
function orderedMounts(layout: SandboxLayout): Mount[] {
  const declared: Mount[] = [
    ...SYSTEM_PATHS.map((p): Mount => ({ path: p, flag: '--ro-bind-try' })),
    ...layout.codeRoots.map((p): Mount => ({ path: p, flag: '--ro-bind-try' })),
    ...layout.paths.map((p): Mount => ({ path: p.path, flag: p.access === 'rw' ? '--bind-try' : '--ro-bind-try' })),
  ];
  const last = declared.filter((m, i) => !declared.slice(i + 1).some((later) => later.path === m.path));
  // Stable: paths of one depth keep their order (they cannot overlap).
  const sorted = [...last].sort((a, b) => depth(a.path) - depth(b.path));
  // A mount inside one of the same kind adds nothing, and bubblewrap cannot create its mount
  // point inside a read-only one (a declared `/` with /etc/localtime, a symlink, below it).
  return sorted.filter((m, i) => {
    const parent = coveringMount(sorted.slice(0, i), m.path);
    const remounted = parent?.path === '/' && FRESH.some((fresh) => within(m.path, fresh));
    return parent === undefined || parent.flag !== m.flag || remounted;
  });
}

export function bwrapArgs(layout: SandboxLayout): string[] {
  const args = [...namespaceFlags()];
  if (layout.grants.network !== 'host') args.push('--unshare-net');
  const mounts = orderedMounts(layout);
  // A declared `/` comes before the fresh /proc, /dev and private /tmp, everything else after.
  for (const m of mounts.filter((m) => m.path === '/')) args.push(m.flag, m.path, m.path);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  for (const m of mounts.filter((m) => m.path !== '/')) args.push(m.flag, m.path, m.path);
  const underWritable = (list: readonly string[] | undefined) =>
    [...new Set(list ?? [])].filter((p) => coveringMount(mounts, p)?.flag === '--bind-try').sort((a, b) => depth(a) - depth(b));
  // A mount point cannot be renamed (EBUSY): conf/ of a protected conf/pincer.json stays where it is.
  for (const p of underWritable(layout.protectedAncestors)) args.push('--bind-try', p, p);
  for (const p of underWritable(layout.protectedPaths)) args.push('--ro-bind-try', p, p);
  // Declared paths may cover the state directory; other plugins' data and the audit log stay hidden.
  const covers = (p: string) => mounts.some((m) => within(p, m.path));
  if (covers(layout.stateDir)) args.push('--tmpfs', layout.stateDir);
  args.push('--bind', layout.dataDir, layout.dataDir);
  if (!covers(layout.cwd) && layout.cwd !== layout.dataDir) args.push('--ro-bind-try', layout.cwd, layout.cwd);
  if (layout.proxySocket) args.push('--dir', path.dirname(SANDBOX_PROXY_SOCKET), '--bind', layout.proxySocket, SANDBOX_PROXY_SOCKET);
  // At their host paths: the kernel names a socket by that path to the backend and to its clients alike.
  if (layout.directChannel) args.push('--ro-bind', layout.directChannel.root, layout.directChannel.root, '--bind', layout.directChannel.own, layout.directChannel.own);
  if (layout.seccomp) args.push('--seccomp', String(SECCOMP_FD));
  args.push('--chdir', layout.cwd);
  return args;
}
