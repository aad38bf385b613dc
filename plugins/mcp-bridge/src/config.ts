/** The bridge's settings, parsed; the schemas are the kernel's and the bridge's shared contract. */
import { BridgeSettings, type HttpServerSettings, type ServerSettings, type StdioServerSettings } from '../../../protocol/v1/mcp-config.js';

export { BridgeSettings };
export type { HttpServerSettings, ServerSettings, StdioServerSettings };

export function isStdio(server: ServerSettings): server is StdioServerSettings {
  return 'command' in server;
}

/** The idle deadline of one tool of a server. */
export function toolTimeout(server: ServerSettings, tool: string): number {
  return server.toolTimeoutsMs[tool] ?? server.timeoutMs;
}

/** Parses settings, naming each bad key by its path (the kernel shows this as the plugin's start error). */
export function parseBridgeSettings(raw: unknown): BridgeSettings {
  const parsed = BridgeSettings.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `mcp.${issue.path.join('.') || '(root)'}: ${issue.message}`);
  throw new Error(`invalid MCP server settings: ${issues.join('; ')}`);
}
