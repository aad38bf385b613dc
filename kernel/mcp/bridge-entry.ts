/**
 * The operator's `mcp` block → the MCP bridge's plugin entry. The kernel decides here, before any
 * process starts, which servers the bridge may run: a server whose tools every agent that enables
 * the bridge denies (`bundle-mcp`, `group:plugins`, or a `*` pattern on its `<server>__` prefix in
 * `tools.deny` or the agent's `tools.deny`) is handed over only by name, to be reported, and is
 * never started. The variables the servers name (`passEnv`, `bearerTokenEnv`) are copied from the
 * kernel's environment into the bridge's, and the bridge's deadlines are raised to fit the
 * servers' own.
 */
import { buildSafeMcpServerNames, createMcpServerToolDenyMatcher } from '../../sdk/policy/index.js';
import type { McpConfig } from '../../protocol/v1/mcp-config.js';
import type { AgentConfig, PincerConfig, PluginConfig } from '../config/schema.js';
import { bundledPluginEntry } from '../config/defaults.js';

export const MCP_BRIDGE_PLUGIN_ID = 'mcp-bridge';
/** The bridge answers a little after its own deadline, so its explanation is what the caller reads. */
const DEADLINE_MARGIN_MS = 5_000;

type ServerEntry = McpConfig['servers'][string];

/** The agents that get the bridge's tools: those enabling its plugin (every agent when none lists plugins). */
function enablingAgents(config: PincerConfig, pluginId: string): AgentConfig[] | undefined {
  const list = config.agents?.list ?? [];
  if (list.length === 0) return undefined;
  const defaults = config.agents?.defaults?.plugins;
  return list.filter((agent) => (agent.plugins ?? defaults ?? [pluginId]).includes(pluginId));
}

/** Names of servers no enabling agent may use. */
export function deniedMcpServers(config: PincerConfig, pluginId = config.mcp?.plugin ?? MCP_BRIDGE_PLUGIN_ID): string[] {
  const names = Object.keys(config.mcp?.servers ?? {});
  const safe = buildSafeMcpServerNames(names);
  const global = config.tools?.deny ?? [];
  const agents = enablingAgents(config, pluginId);
  const matchers = agents === undefined ? [createMcpServerToolDenyMatcher(global)] : agents.map((agent) => createMcpServerToolDenyMatcher([...global, ...(agent.tools?.deny ?? [])]));
  return names.filter((name) => matchers.every((denies) => denies(safe.get(name)!)));
}

/**
 * The plugin list with the bridge's entry added (or completed) for the `mcp` block; unchanged
 * without one. `workspaces` decide whether the bundled bridge may run from inside one (a Pincer checkout).
 */
export function withMcpBridge(config: PincerConfig, options: { env?: NodeJS.ProcessEnv; workspaces?: readonly string[] } = {}): PluginConfig[] {
  const env = options.env ?? process.env;
  const plugins = config.plugins ?? [];
  const mcp = config.mcp;
  if (!mcp || Object.keys(mcp.servers).length === 0) return [...plugins];
  const pluginId = mcp.plugin ?? MCP_BRIDGE_PLUGIN_ID;
  const existing = plugins.find((plugin) => plugin.id === pluginId);
  const names = Object.keys(mcp.servers);
  const denied = new Set(deniedMcpServers(config, pluginId));
  const allowed = names.filter((name) => !denied.has(name));
  const servers = Object.fromEntries(allowed.map((name) => [name, mcp.servers[name]]));
  const entry: PluginConfig = {
    ...(existing ?? { id: pluginId, ...bundledPluginEntry(MCP_BRIDGE_PLUGIN_ID, options.workspaces ?? []) }),
    settings: {
      ...existing?.settings,
      servers,
      deniedServers: [...denied],
      safeServerNames: Object.fromEntries(buildSafeMcpServerNames(names)),
      ...(mcp.pinning ? { pinning: mcp.pinning } : {}),
      ...(mcp.maxToolsPerServer ? { maxToolsPerServer: mcp.maxToolsPerServer } : {}),
    },
    env: { ...copiedEnv(Object.values(servers), env), ...existing?.env },
    timeouts: fittedTimeouts(existing?.timeouts, Object.values(servers)),
  };
  return existing ? plugins.map((plugin) => (plugin === existing ? entry : plugin)) : [...plugins, entry];
}

function copiedEnv(servers: ServerEntry[], env: NodeJS.ProcessEnv): Record<string, string> {
  const names = servers.flatMap((server) => ('command' in server ? (server.passEnv ?? []) : server.bearerTokenEnv ? [server.bearerTokenEnv] : []));
  return Object.fromEntries(names.flatMap((name) => (env[name] !== undefined ? [[name, env[name]!]] : [])));
}

/** The operator's bridge timeouts, raised (never lowered) to fit the longest server deadline. */
function fittedTimeouts(timeouts: PluginConfig['timeouts'], servers: ServerEntry[]): PluginConfig['timeouts'] {
  const idle = Math.max(0, ...servers.flatMap((s) => [s.timeoutMs ?? 60_000, ...Object.values(s.toolTimeoutsMs ?? {})]));
  const total = Math.max(0, ...servers.map((s) => s.maxTotalTimeoutMs ?? 600_000));
  return {
    ...timeouts,
    callMs: timeouts?.callMs ?? idle + DEADLINE_MARGIN_MS,
    maxCallMs: timeouts?.maxCallMs ?? Math.max(total, idle) + DEADLINE_MARGIN_MS,
  };
}
