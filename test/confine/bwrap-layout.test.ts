import { describe, expect, it } from 'vitest';
import { bwrapArgs, type SandboxLayout } from '../../kernel/confine/bwrap-args.js';
import { expandPaths, resolveConfinement } from '../../kernel/confine/grants.js';
import { PluginConfinement } from '../../protocol/v1/confinement.js';

const grants = { filesystem: [], network: 'none' as const, spawn: true, env: [] };

function layout(over: Partial<SandboxLayout>): SandboxLayout {
  return { grants, paths: [], codeRoots: [], dataDir: '/state/data/p', stateDir: '/state', cwd: '/state/data/p', seccomp: false, ...over } as SandboxLayout;
}

/** Each mount as `flag path`, in bubblewrap's order (later mounts cover earlier ones). */
function mounts(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) if (args[i] === '--bind-try' || args[i] === '--ro-bind-try') out.push(`${args[i]} ${args[++i]}`), i++;
  return out.filter((m) => !m.includes('/usr') && !m.includes('/etc') && !m.includes('/lib') && !m.includes('/bin') && !m.includes('/opt') && !m.includes('/sbin') && !m.includes('/run'));
}

describe('the mount order of a confined plugin', () => {
  it('mounts the workspace read-write over a code root that is the workspace, then holds its protected paths read-only', () => {
    // Pincer's own checkout as the workspace: the code root and the rw grant are the same directory.
    const args = bwrapArgs(layout({ codeRoots: ['/ws'], paths: [{ path: '/ws', access: 'rw' }], protectedPaths: ['/ws/.git', '/ws/dist', '/elsewhere/.git'] }));
    expect(mounts(args)).toEqual(['--bind-try /ws', '--ro-bind-try /ws/.git', '--ro-bind-try /ws/dist']);
  });

  it('keeps a narrower grant over a wider one, whichever was declared first', () => {
    const args = bwrapArgs(layout({ paths: [{ path: '/ws/cache', access: 'rw' }, { path: '/ws', access: 'ro' }] }));
    expect(mounts(args)).toEqual(['--ro-bind-try /ws', '--bind-try /ws/cache']);
  });

  it('lets the later declaration decide one path, and adds nothing inside a mount of the same kind', () => {
    const args = bwrapArgs(layout({ paths: [{ path: '/ws', access: 'rw' }, { path: '/ws', access: 'ro' }, { path: '/ws/sub', access: 'ro' }] }));
    expect(mounts(args)).toEqual(['--ro-bind-try /ws']);
  });

  it('does not remount a protected path that only a read-only mount covers', () => {
    const args = bwrapArgs(layout({ paths: [{ path: '/ws', access: 'ro' }], protectedPaths: ['/ws/.git'] }));
    expect(mounts(args)).toEqual(['--ro-bind-try /ws']);
  });
});

describe('what a declaration resolves to', () => {
  it('runs a plugin that states why it cannot be confined unconfined, with its reason', () => {
    const declared = PluginConfinement.parse({ unconfined: 'drives MCP servers the operator names, each its own program' });
    expect(resolveConfinement(declared, {})).toEqual({ kind: 'unconfinable', reason: 'drives MCP servers the operator names, each its own program' });
    expect(() => PluginConfinement.parse({ unconfined: '' })).toThrow();
  });

  it('expands ${settings.*} to the path a setting names, relative to the plugin, one per list entry, nothing when unset', () => {
    const declared = PluginConfinement.parse({ filesystem: [{ path: '${settings.outbox.dir}/sent', access: 'rw' }, { path: '${settings.keys}', access: 'ro' }, { path: '${settings.unset}', access: 'ro' }] });
    const resolved = resolveConfinement(declared, {});
    if (resolved.kind !== 'confined') throw new Error(`expected grants, got ${resolved.kind}`);
    const values = { workspaces: [], dataDir: '/d', skillRoots: [], settings: { outbox: { dir: 'out' }, keys: ['/k1', 'k2', '', 3] }, cwd: '/plugin' };
    expect(expandPaths(resolved.grants, values)).toEqual([
      { path: '/plugin/out/sent', access: 'rw' },
      { path: '/k1', access: 'ro' },
      { path: '/plugin/k2', access: 'ro' },
    ]);
    expect(() => PluginConfinement.parse({ filesystem: [{ path: '${settings.}', access: 'ro' }] })).toThrow(/must be absolute/);
    expect(() => PluginConfinement.parse({ filesystem: [{ path: '${settings.a}/../x', access: 'ro' }] })).toThrow(/\.\./);
  });
});
