/**
 * Where the MCP bridge of a config keeps its files (pins, OAuth tokens), and its server settings,
 * as the kernel would hand them over: the CLI's `pincer mcp` works on the same files the running
 * bridge reads.
 */
import { MCP_BRIDGE_PLUGIN_ID } from '../../kernel/mcp/bridge-entry.js';
import { defaultStateDir, pluginDataDirPath } from '../../kernel/host/data-dir.js';
import { BridgeSettings, type ServerSettings } from '../../protocol/v1/mcp-config.js';
import type { PincerConfig } from '../../kernel/config/schema.js';
import { CliError } from '../errors.js';

export interface BridgeData {
  dataDir: string;
  servers: Record<string, ServerSettings>;
}

export function bridgeData(config: PincerConfig, env: NodeJS.ProcessEnv): BridgeData {
  if (!config.mcp || Object.keys(config.mcp.servers).length === 0) {
    throw new CliError('CONFIG', 'this config has no MCP servers (mcp.servers is empty or missing)', { hint: 'Add the server under mcp.servers in the config file; see docs/mcp.md.' });
  }
  const pluginId = config.mcp.plugin ?? MCP_BRIDGE_PLUGIN_ID;
  const servers = BridgeSettings.parse({ servers: config.mcp.servers }).servers;
  // The directory the host gives the bridge as PINCER_PLUGIN_DATA_DIR.
  return { dataDir: pluginDataDirPath(defaultStateDir(env), pluginId), servers };
}
