/**
 * An agent's effective sandbox settings: `agents.defaults.sandbox` merged with the agent's own
 * `sandbox`, key by key (the rule is in sdk/policy/sandbox-merge.ts). The kernel's run shape and
 * the CLI's sandbox commands both call this, so they agree on what a session gets.
 */
import { mergeSandboxLayers } from '../../sdk/policy/sandbox-merge.js';
import type { AgentConfig, PincerConfig, SandboxConfig } from './schema.js';

/**
 * With `scope: shared` one sandbox serves every agent, so an agent's own `docker` block is
 * ignored (the defaults' block still applies): otherwise the first agent to arrive would
 * decide the shared container's settings for all the others.
 */
export function resolveAgentSandbox(config: PincerConfig, agent: AgentConfig | undefined): SandboxConfig {
  const defaults = config.agents?.defaults?.sandbox;
  const own = agent?.sandbox;
  const merged = mergeSandboxLayers<SandboxConfig>(defaults, own);
  if (merged.scope !== 'shared' || own?.docker === undefined) return merged;
  const { docker: _ignored, ...rest } = merged;
  return defaults?.docker ? { ...rest, docker: defaults.docker } : rest;
}
