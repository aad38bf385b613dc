/**
 * The MCP bridge plugin: an operator's MCP servers as Pincer tools (`<server>__<tool>`, all
 * under plugin id `bundle-mcp` for policy), behind the kernel's policy, gate and hooks.
 */
import { definePlugin } from '../../../sdk/plugin-api.js';
import { McpBridge, type BridgeOptions } from './bridge.js';

export const MCP_BRIDGE_PLUGIN_ID = 'mcp-bridge';
export const MCP_BRIDGE_VERSION = '0.1.0';

export function createMcpBridgePlugin(options: Partial<BridgeOptions> = {}) {
  const bridge = new McpBridge({ version: MCP_BRIDGE_VERSION, ...options });
  const plugin = definePlugin({
    id: MCP_BRIDGE_PLUGIN_ID,
    version: MCP_BRIDGE_VERSION,
    family: 'mcp',
    tools: [],
    activate: ({ settings, log }) => bridge.activate(settings, log),
    // No server outlives the bridge: each is stopped with its whole process group.
    deactivate: () => bridge.deactivate(),
  });
  return { plugin, bridge };
}
