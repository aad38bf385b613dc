/** What the bridge knows of one MCP server's offer, and of one tool it materialized from it. */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/** A server's catalog: its tools as `tools/list` gave them and the capabilities it declared. */
export interface ServerCatalog {
  tools: Tool[];
  resources: boolean;
  prompts: boolean;
}

export type UtilityOperation = 'resources_list' | 'resources_read' | 'prompts_list' | 'prompts_get';
export type BridgedOperation = 'tool' | UtilityOperation;

/** One tool as the model will see it, with where it goes. */
export interface BridgedTool {
  /** `<safe server>__<safe tool>`, unique case-insensitively. */
  name: string;
  serverName: string;
  safeServerName: string;
  /** The server's own tool name (or the utility operation). */
  toolName: string;
  operation: BridgedOperation;
  description: string;
  inputSchema: Record<string, unknown>;
  title?: string;
  annotations?: Tool['annotations'];
  outputSchema?: Record<string, unknown>;
  executionMode: 'parallel' | 'sequential';
}
