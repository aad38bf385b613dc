/**
 * A bridged tool as the bridge contributes it: under plugin id `bundle-mcp` for policy, with the
 * server's title, hints and output schema, parallel only when the server is declared to allow it,
 * and a deadline the kernel keeps a little longer than the bridge's own, so the bridge's
 * explanation (which server, which deadline) is what the model reads.
 */
import { BUNDLE_MCP_PLUGIN_ID, MAX_TOOL_DESCRIPTION_CHARS } from '../../../../protocol/index.js';
import type { ToolContext, ToolDefinition, ToolReturn } from '../../../../sdk/plugin-api.js';
import type { BridgedTool } from '../catalog/types.js';

const KERNEL_DEADLINE_MARGIN_MS = 2_000;
/** The protocol's longest title; a server's longer one is cut, not sent (the kernel would refuse the whole tool). */
const MAX_TITLE_CHARS = 256;
const CUT = ' […cut by the MCP bridge]';

/** `text` within `max` characters, saying so when it was cut. */
function fit(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - CUT.length)}${CUT}`;
}

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
    description: options.blocked ? BLOCKED_DESCRIPTION : fit(tool.description, MAX_TOOL_DESCRIPTION_CHARS),
    inputSchema: tool.inputSchema,
    family: 'mcp',
    policyPluginId: BUNDLE_MCP_PLUGIN_ID,
    executionMode: tool.executionMode,
    timeoutMs: options.timeoutMs + KERNEL_DEADLINE_MARGIN_MS,
    ...(tool.title ? { title: fit(tool.title, MAX_TITLE_CHARS) } : {}),
    ...(tool.annotations ? { annotations: pickHints(tool.annotations) } : {}),
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    handler: (args, ctx) => options.handler((args ?? {}) as Record<string, unknown>, ctx),
  };
}

function pickHints(annotations: NonNullable<BridgedTool['annotations']>) {
  const { readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = annotations;
  return Object.fromEntries(Object.entries({ readOnlyHint, destructiveHint, idempotentHint, openWorldHint }).filter(([, v]) => typeof v === 'boolean'));
}
