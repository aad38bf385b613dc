/**
 * The directories agents can write, from the config: every agent's workspace (resolved as runs
 * resolve it) and the host side of every sandbox bind mount. The host refuses plugin code there.
 * Also which plugins can meet in one agent's tool surface, for tool-name ownership.
 */
import path from 'node:path';
import type { PincerConfig } from '../config/schema.js';

/** Host paths of `host:container[:mode]` bind specs; named volumes (no path) are skipped. */
function bindSources(binds: unknown): string[] {
  if (!Array.isArray(binds)) return [];
  return binds.flatMap((spec) => {
    if (typeof spec !== 'string') return [];
    const host = spec.split(':')[0] ?? '';
    return path.isAbsolute(host) ? [host] : [];
  });
}

const dockerBinds = (sandbox: { docker?: Record<string, unknown> } | undefined): string[] => bindSources(sandbox?.docker?.binds);

export function workspaceRootsOf(config: PincerConfig, cwd: string): string[] {
  const agents = config.agents;
  const defaultWorkspace = agents?.defaults?.workspace;
  const list = agents?.list ?? [];
  const workspaces = list.length === 0 ? [defaultWorkspace] : list.map((agent) => agent.workspace ?? defaultWorkspace);
  const roots = [
    ...workspaces.map((w) => path.resolve(cwd, w ?? '.')),
    ...dockerBinds(agents?.defaults?.sandbox),
    ...list.flatMap((agent) => dockerBinds(agent.sandbox)),
    // Backend plugins take binds in their settings too (`settings.docker.binds`).
    ...(config.plugins ?? []).flatMap((plugin) => dockerBinds(plugin.settings as { docker?: Record<string, unknown> } | undefined)),
  ];
  return [...new Set(roots)];
}

/**
 * Whether two plugins can serve tools to one run: some agent enables both (an agent without a
 * plugin list enables every configured plugin).
 */
export function sharesSurfaceOf(config: PincerConfig): (a: string, b: string) => boolean {
  const agents = config.agents;
  const list = agents?.list ?? [];
  const sets = (list.length === 0 ? [agents?.defaults?.plugins] : list.map((agent) => agent.plugins ?? agents?.defaults?.plugins)).map((ids) => (ids ? new Set(ids) : undefined));
  return (a, b) => sets.some((set) => !set || (set.has(a) && set.has(b)));
}
