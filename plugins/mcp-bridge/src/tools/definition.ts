/**
 * A bridged tool as the bridge contributes it: under plugin id `bundle-mcp` for policy, with the
 * server's title, hints and output schema, parallel only when the server is declared to allow it,
 * and a deadline the kernel keeps a little longer than the bridge's own, so the bridge's
 * explanation (which server, which deadline) is what the model reads.
 */
import { BUNDLE_MCP_PLUGIN_ID } from '../../../../protocol/index.js';
import type { ToolContext, ToolDefinition, ToolReturn } from '../../../../sdk/plugin-api.js';
import type { BridgedTool } from '../catalog/types.js';

const KERNEL_DEADLINE_MARGIN_MS = 2_000;

/** What a blocked tool's description says, instead of the changed (possibly hostile) text. */
export const BLOCKED_DESCRIPTION = 'Blocked: the MCP server changed this tool’s definition since it was first seen. An operator must review the change before it can be used.';

export interface DefinitionOptions {
  timeoutMs: number;
  blocked: boolean;
  handler(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolReturn>;
}

export function bridgedToolDefinition(tool: BridgedTool, options: DefinitionOptions): ToolDefinition<any> {
  return {
    name: tool.name,
    description: options.blocked ? BLOCKED_DESCRIPTION : tool.description,
    inputSchema: tool.inputSchema,
    family: 'mcp',
    policyPluginId: BUNDLE_MCP_PLUGIN_ID,
    executionMode: tool.executionMode,
    timeoutMs: options.timeoutMs + KERNEL_DEADLINE_MARGIN_MS,
    ...(tool.title ? { title: tool.title } : {}),
    ...(tool.annotations ? { annotations: pickHints(tool.annotations) } : {}),
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    handler: (args, ctx) => options.handler((args ?? {}) as Record<string, unknown>, ctx),
  };
}

function pickHints(annotations: NonNullable<BridgedTool['annotations']>) {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = annotations;
  return Object.fromEntries(Object.entries({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint }).filter(([, v]) => typeof v === 'boolean'));
}
