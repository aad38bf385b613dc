/**
 * The sandbox settings the operator commands act on, read from the discovered config exactly
 * as the kernel and the backend read them: the agent's layer from kernel/config/sandbox-merge.ts
 * (the function the kernel's run shape calls), then the backend plugin's `settings` as the base
 * layer in resolveSandboxConfig (the function the plugin calls).
 */
import { resolve } from 'node:path';
import { resolveAgentSandbox } from '../../kernel/config/sandbox-merge.js';
import type { AgentConfig, PincerConfig as KernelConfig, SandboxConfig } from '../../kernel/config/schema.js';
import { resolveSandboxConfig, type DockerBackendSettings, type ResolvedSandboxConfig, type SandboxSettings } from '../../sdk/sandbox/config.js';
import { CliError } from '../errors.js';
import type { PincerConfig } from '../kernel.js';

/** The config has been validated by the kernel's loader before any of this runs. */
const view = (config: PincerConfig) => config as KernelConfig;

/** The entry of the plugin with this id (and its index, for config paths), or undefined. */
export function pluginEntry(config: PincerConfig, pluginId: string): { index: number; settings: Record<string, unknown> } | undefined {
  const index = view(config).plugins?.findIndex((p) => p.id === pluginId) ?? -1;
  return index < 0 ? undefined : { index, settings: view(config).plugins![index]!.settings ?? {} };
}

/** The `settings` of the plugin entry with this id, or undefined when the plugin is not configured. */
export function pluginSettings(config: PincerConfig, pluginId: string): Record<string, unknown> | undefined {
  return pluginEntry(config, pluginId)?.settings;
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

export function agentConfig(config: PincerConfig, agentId: string | undefined): AgentConfig | undefined {
  return agentId === undefined ? undefined : view(config).agents?.list?.find((a) => a.id === agentId);
}

/** The agent's effective sandbox settings (the kernel's merge); with no agent, the defaults alone. */
export function agentSandbox(config: PincerConfig, agentId?: string): SandboxConfig {
  return resolveAgentSandbox(view(config), agentConfig(config, agentId));
}

/** The host directory an agent's sandbox mounts at the workdir (what the kernel passes). */
export function agentWorkspaceDir(config: PincerConfig, agentId: string, cwd: string): string {
  return resolve(cwd, agentConfig(config, agentId)?.workspace ?? view(config).agents?.defaults?.workspace ?? '.');
}

/** The layer the kernel sends the backend in `sandbox/prepare` (kernel/assembly/run-shape.ts). */
export function backendLayer(sandbox: SandboxConfig): SandboxSettings {
  return {
    scope: sandbox.scope,
    ...(sandbox.workspaceAccess ? { workspaceAccess: sandbox.workspaceAccess } : {}),
    ...(sandbox.docker ? { docker: sandbox.docker as SandboxSettings['docker'] } : {}),
  };
}

/** The docker backend's resolved config for an agent (or the defaults). */
export function dockerConfig(config: PincerConfig, agentId?: string): ResolvedSandboxConfig {
  const global = (pluginSettings(config, 'sandbox-docker') ?? {}) as DockerBackendSettings;
  try {
    return resolveSandboxConfig(global, backendLayer(agentSandbox(config, agentId)));
  } catch (cause) {
    throw new CliError('CONFIG', (cause as Error).message, { cause, hint: 'pincer config check names the config path of each problem' });
  }
}

/** The plugin's `registryPath` setting, if any; relative paths resolve against cwd. */
export function registryPathSetting(config: PincerConfig, cwd: string): string | undefined {
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
