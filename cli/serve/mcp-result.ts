/**
 * Translation between the kernel's tool shapes and MCP's: definitions for `tools/list` and results
 * for `tools/call`. MCP has no `json` content block, so JSON becomes pretty text.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallResult, ToolContent, ToolDefinition, ToolResult } from '../kernel.js';

/** The `_meta` key under which a result carries the kernel's verdict, the same data `pincer call --json` prints. */
export const OUTCOME_META_KEY = 'pincer/outcome';

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

/**
 * A call's result for `tools/call`: every outcome but `ok` is `isError: true` (a block too), and
 * `_meta["pincer/outcome"]` carries outcome, code and retryable (plus the error, the policy
 * removal or the plugin's state), so an MCP client reads the verdict without parsing text.
 */
export function toMcpResult(result: ToolResult | CallResult): CallToolResult {
  const content = result.content.map(toMcpContent);
  if (!('outcome' in result)) return result.isError ? { content, isError: true } : { content };
  const verdict: Record<string, unknown> = { outcome: result.outcome, code: result.code ?? null, retryable: result.retryable };
  if (result.isError) {
    verdict.error = result.error;
    if (result.details?.removal) verdict.removal = result.details.removal;
    if (result.plugin) verdict.plugin = result.plugin;
  }
  return { content, ...(result.isError ? { isError: true } : {}), _meta: { [OUTCOME_META_KEY]: verdict } };
}

/** A tool-level error: MCP wants these as results with `isError`, so the model can read them. */
export function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
