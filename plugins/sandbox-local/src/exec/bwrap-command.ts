import { execFile } from 'node:child_process';
import { CONFINEMENT_ENV } from '../../../../protocol/v1/confinement.js';
import type { ExecConfinement } from './exec-confinement.js';
import type { ProtectedMounts } from '../../../../sdk/protected-paths/placeholders.js';

/** Visible in `hostFilesystem: "hidden"`: what a shell and its tools need, nothing of the user's. */
const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/etc', '/opt'];

/** Inside a confined plugin, /proc is already a private one (its PID namespace holds no kernel process) and a nested one cannot be mounted. */
const insidePluginSandbox = (env: NodeJS.ProcessEnv) => env[CONFINEMENT_ENV] !== undefined;

/**
 * The namespaces every confined command gets. No `--new-session`: the command must stay in
 * bubblewrap's process group so the timeout's group signal reaches it (it has no terminal to
 * inject into: the backend runs without one).
 */
function namespaces(network: boolean, env: NodeJS.ProcessEnv): string[] {
  const flags = ['--unshare-user', '--unshare-ipc', '--unshare-pid', '--unshare-uts', '--unshare-cgroup-try', '--die-with-parent', '--cap-drop', 'ALL'];
  if (!network) flags.push('--unshare-net');
  flags.push(...(insidePluginSandbox(env) ? ['--ro-bind', '/proc', '/proc'] : ['--proc', '/proc']));
  return flags;
}

type Confined = Extract<ExecConfinement, { mode: 'workspace-write' }>;

const depth = (p: string) => p.split('/').filter(Boolean).length;

/**
 * bubblewrap's arguments (before `--`) for one command whose working directory is `cwd`.
 * Each mount covers what came before it, so parents go first (a read-only mount inside the
 * workspace stays read-only, the workspace inside a read-only mount stays writable; for one
 * path the read-only mount wins) and the protected paths last, over everything.
 */
export function bwrapCommandArgs(c: Confined, held: ProtectedMounts, cwd: string, env: NodeJS.ProcessEnv = process.env): string[] {
  const args: string[] = [];
  if (c.hostFilesystem === 'read-only') args.push('--ro-bind', '/', '/');
  else for (const dir of SYSTEM_DIRS) args.push('--ro-bind-try', dir, dir);
  args.push(...namespaces(c.network, env), '--dev', '/dev', '--tmpfs', '/tmp');
  const workspaceFlag = c.readOnly ? '--ro-bind' : '--bind';
  const mounts = [
    { flag: workspaceFlag, dir: c.workspaceDir },
    ...held.ancestors.map((dir) => ({ flag: workspaceFlag, dir })),
    ...c.readOnlyDirs.map((dir) => ({ flag: '--ro-bind', dir })),
  ].sort((a, b) => depth(a.dir) - depth(b.dir));
  for (const m of mounts) args.push(m.flag, m.dir, m.dir);
  for (const p of held.readOnly) args.push('--ro-bind', p, p);
  args.push('--chdir', cwd);
  return args;
}

/** Probes once whether bubblewrap can create the namespaces a command needs here. */
let probe: Promise<string | undefined> | undefined;
export function bwrapUnavailable(env: NodeJS.ProcessEnv = process.env): Promise<string | undefined> {
  probe ??= new Promise((resolve) => {
    const args = [...namespaces(false, env), '--ro-bind', '/', '/', '--dev', '/dev', '--', 'true'];
    execFile('bwrap', args, { timeout: 10_000, env: { PATH: env.PATH ?? '/usr/bin:/bin' } }, (error, _out, stderr) => {
      if (!error) return resolve(undefined);
      const code = (error as NodeJS.ErrnoException).code;
      resolve(code === 'ENOENT' ? 'bubblewrap (bwrap) is not installed' : `bwrap cannot create namespaces here: ${String(stderr).trim().split('\n').pop() || error.message}`);
    });
  });
  return probe;
}
