/**
 * Translation between the kernel's tool shapes and MCP's: definitions for `tools/list` and results
 * for `tools/call`. MCP has no `json` content block, so JSON becomes pretty text.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContent, ToolDefinition, ToolResult } from '../kernel.js';

/** A tool for `tools/list`. MCP requires `inputSchema.type === "object"`. */
export function toMcpTool(tool: ToolDefinition): Tool {
  return { name: tool.name, description: tool.description, inputSchema: toObjectSchema(tool.inputSchema) };
}

/**
 * The kernel normalizes schemas for the provider, which yields object schemas for every real tool;
 * this is the safety net so one odd schema cannot make a client reject the whole list.
 */
export function toObjectSchema(schema: object | undefined): Tool['inputSchema'] {
  const s = (schema ?? {}) as Record<string, unknown>;
  if (s.type === 'object') return s as Tool['inputSchema'];
  if (s.type === undefined && (s.properties !== undefined || Object.keys(s).length === 0)) {
    return { ...s, type: 'object' } as Tool['inputSchema'];
  }
  // A non-object schema (or a bare anyOf) cannot be an MCP tool's arguments; wrap it loosely.
  return { type: 'object', additionalProperties: true, description: 'Arguments (schema not representable as an object)' } as Tool['inputSchema'];
}

export function toMcpContent(block: ToolContent): CallToolResult['content'][number] {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', data: block.data, mimeType: block.mimeType };
    case 'json':
      return { type: 'text', text: JSON.stringify(block.json, null, 2) };
    case 'audio':
    case 'resource_link':
    case 'resource':
      // MCP's own block types (passed through from bridged MCP servers): sent as they are.
      return block as CallToolResult['content'][number];
    default:
      return { type: 'text', text: JSON.stringify(block) };
  }
}

export function toMcpResult(result: ToolResult): CallToolResult {
  const content = result.content.map(toMcpContent);
  return result.isError ? { content, isError: true } : { content };
}

/** A tool-level error: MCP wants these as results with `isError`, so the model can read them. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
