/**
 * A tool as `tools/list` shows it: the kernel's definition (name mapped into what MCP clients
 * accept) with the metadata its plugin declared: a title, the four behaviour hints and an output
 * schema (MCP requires an object schema there, so anything else is left out).
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolDefinition } from '../kernel.js';
import { toMcpTool } from './mcp-result.js';

export function listedTool(tool: ToolDefinition, mcpName: string): Tool {
  const output = tool.outputSchema;
  return {
    ...toMcpTool(tool),
    name: mcpName,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.annotations ? { annotations: { ...(tool.title ? { title: tool.title } : {}), ...tool.annotations } } : {}),
    ...(output && output.type === 'object' ? { outputSchema: output as Tool['outputSchema'] } : {}),
  };
}
