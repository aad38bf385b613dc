/**
 * The sandbox settings the operator commands act on, read from the discovered config the same
 * way the kernel and the backend plugins read them: the backend plugin's own `settings`
 * (global sandbox settings, `registryPath`), then `agents.defaults.sandbox`, then the agent's
 * `sandbox` (shallow-merged over the defaults, as the kernel's run shape does).
 */
import { resolve } from 'node:path';
import { resolveSandboxConfig, type ResolvedSandboxConfig, type SandboxSettings } from '../../sdk/sandbox/config.js';
import { CliError } from '../errors.js';
import type { PincerConfig } from '../kernel.js';

/** The CLI's narrow view of the config keys it reads; the kernel has already validated them. */
interface SandboxView {
  mode?: 'off' | 'non-main' | 'all';
  backend?: string;
  scope?: 'session' | 'agent' | 'shared';
  workspaceAccess?: 'rw' | 'ro' | 'none';
  docker?: Record<string, unknown>;
  ssh?: Record<string, unknown>;
}
interface AgentView { id: string; default?: boolean; workspace?: string; sandbox?: SandboxView }
interface ConfigView {
  plugins?: Array<{ id: string; settings?: Record<string, unknown> }>;
  agents?: { defaults?: { sandbox?: SandboxView; workspace?: string }; list?: AgentView[] };
}

const view = (config: PincerConfig) => config as ConfigView;

/** The `settings` of the plugin entry with this id, or undefined when the plugin is not configured. */
export function pluginSettings(config: PincerConfig, pluginId: string): Record<string, unknown> | undefined {
  const entry = view(config).plugins?.find((p) => p.id === pluginId);
  return entry ? (entry.settings ?? {}) : undefined;
}

/** Agent ids in config order; `main` when the config lists none. */
export function agentIds(config: PincerConfig): string[] {
  const list = view(config).agents?.list ?? [];
  return list.length ? list.map((a) => a.id) : ['main'];
}

export function defaultAgentId(config: PincerConfig): string {
  const list = view(config).agents?.list ?? [];
  return (list.find((a) => a.default) ?? list[0])?.id ?? 'main';
}

/** The agent's effective sandbox settings; with no agent, the defaults alone. */
export function agentSandbox(config: PincerConfig, agentId?: string): SandboxView {
  const agents = view(config).agents;
  const agent = agentId === undefined ? undefined : agents?.list?.find((a) => a.id === agentId);
  return { ...agents?.defaults?.sandbox, ...agent?.sandbox };
}

/** The host directory an agent's sandbox mounts at the workdir (what the kernel passes). */
export function agentWorkspaceDir(config: PincerConfig, agentId: string, cwd: string): string {
  const agents = view(config).agents;
  const agent = agents?.list?.find((a) => a.id === agentId);
  return resolve(cwd, agent?.workspace ?? agents?.defaults?.workspace ?? '.');
}

/**
 * The docker backend's resolved config for an agent (or the defaults): plugin settings as the
 * global layer, the merged agent sandbox as the agent layer. An unset `workspaceAccess` is
 * passed on unset, exactly as the kernel's run shape (kernel/assembly/run-shape.ts) does, so
 * the backend applies its own default and `list` compares like with like.
 */
export function dockerConfig(config: PincerConfig, agentId?: string): ResolvedSandboxConfig {
  const global = (pluginSettings(config, 'sandbox-docker') ?? {}) as SandboxSettings;
  const sandbox = agentSandbox(config, agentId);
  try {
    return resolveSandboxConfig(global, {
      scope: sandbox.scope,
      ...(sandbox.workspaceAccess ? { workspaceAccess: sandbox.workspaceAccess } : {}),
      ...(sandbox.docker ? { docker: sandbox.docker as SandboxSettings['docker'] } : {}),
    });
  } catch (cause) {
    // A zod error: a docker key the kernel passes through unchecked has the wrong type.
    throw new CliError('CONFIG', `invalid docker sandbox settings: ${(cause as Error).message.split('\n')[0]}`, { cause });
  }
}

/** Every container prefix in use (defaults and per agent), so lifecycle commands see every scope. */
export function containerPrefixes(config: PincerConfig): string[] {
  const prefixes = [undefined, ...agentIds(config)].map((id) => dockerConfig(config, id).docker.containerPrefix);
  return [...new Set(prefixes)];
}

/** The plugin's `registryPath`, where it records "last used"; relative paths resolve against cwd. */
export function registryPath(config: PincerConfig, cwd: string): string | undefined {
  const path = pluginSettings(config, 'sandbox-docker')?.registryPath;
  return typeof path === 'string' && path ? resolve(cwd, path) : undefined;
}

/** Backend ids the config uses or provides: `sandbox-<id>` plugin entries and agents' `backend`. */
export function configuredBackends(config: PincerConfig, agentId?: string): string[] {
  if (agentId !== undefined) return [(agentSandbox(config, agentId).backend ?? 'docker').trim().toLowerCase()];
  const ids = new Set<string>();
  for (const p of view(config).plugins ?? []) if (p.id === 'sandbox-docker' || p.id === 'sandbox-ssh') ids.add(p.id.slice('sandbox-'.length));
  for (const id of [undefined, ...agentIds(config)]) {
    const s = agentSandbox(config, id);
    if (s.mode && s.mode !== 'off') ids.add((s.backend ?? 'docker').trim().toLowerCase());
  }
  return [...ids];
}
