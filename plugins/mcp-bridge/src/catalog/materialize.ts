/**
 * MCP server catalogs → the tools the bridge contributes (SPEC §7): provider-safe
 * `<server>__<tool>` names, a warning for each name that had to change, the server's own tool
 * filter, tools the model may not call skipped (app-only, task-only), the resource and prompt
 * utility tools only for servers that declared those capabilities, parallel execution only for
 * servers declared to support it, and one deterministic order whatever order servers answered in.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { buildSafeMcpToolName, MCP_TOOL_NAME_SEPARATOR } from '../../../../sdk/policy/index.js';
import type { ServerSettings } from '../config.js';
import type { BridgedTool, ServerCatalog, UtilityOperation } from './types.js';
import { UTILITY_TOOLS } from './utility-defs.js';

export interface MaterializeInput {
  serverName: string;
  safeServerName: string;
  settings: ServerSettings;
  catalog: ServerCatalog;
}

export interface Materialized {
  tools: BridgedTool[];
  warnings: string[];
}

/** Whether the server's tool filter admits a tool (or utility operation) by its own name. */
export function admits(settings: ServerSettings, toolName: string): boolean {
  if (settings.excludeTools.includes(toolName)) return false;
  return settings.includeTools === undefined || settings.includeTools.includes(toolName);
}

/** Why the model cannot call this tool through tools/call, or undefined when it can. */
function uncallable(tool: Tool): string | undefined {
  const ui = (tool._meta as { ui?: { visibility?: unknown } } | undefined)?.ui;
  if (Array.isArray(ui?.visibility) && !ui.visibility.includes('model')) return 'it is visible to apps only';
  if ((tool.execution as { taskSupport?: unknown } | undefined)?.taskSupport === 'required') return 'it runs only as an MCP task, which the bridge does not use';
  return undefined;
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export function materializeCatalogs(servers: readonly MaterializeInput[]): Materialized {
  const reserved = new Set<string>();
  const tools: BridgedTool[] = [];
  const warnings: string[] = [];
  const entries = servers.flatMap((server) => server.catalog.tools.map((tool) => ({ server, tool })));
  entries.sort((a, b) => compare(a.server.safeServerName, b.server.safeServerName) || compare(a.tool.name, b.tool.name) || compare(a.server.serverName, b.server.serverName));
  for (const { server, tool } of entries) {
    if (typeof tool.name !== 'string' || tool.name.trim() === '' || !admits(server.settings, tool.name)) continue;
    const why = uncallable(tool);
    if (why) {
      warnings.push(`mcp: tool "${tool.name}" of server "${server.serverName}" is left out: ${why}.`);
      continue;
    }
    const name = reserve(server, tool.name, reserved, warnings);
    tools.push({
      name,
      serverName: server.serverName,
      safeServerName: server.safeServerName,
      toolName: tool.name,
      operation: 'tool',
      description: tool.description ?? '',
      inputSchema: tool.inputSchema as Record<string, unknown>,
      ...(tool.title ?? tool.annotations?.title ? { title: tool.title ?? tool.annotations?.title } : {}),
      ...(tool.annotations ? { annotations: tool.annotations } : {}),
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
      executionMode: server.settings.supportsParallelToolCalls ? 'parallel' : 'sequential',
    });
  }
  for (const server of [...servers].sort((a, b) => compare(a.serverName, b.serverName))) {
    for (const operation of utilityOperations(server.catalog)) {
      if (!admits(server.settings, operation)) continue;
      const definition = UTILITY_TOOLS[operation];
      tools.push({
        name: reserve(server, operation, reserved, warnings),
        serverName: server.serverName,
        safeServerName: server.safeServerName,
        toolName: operation,
        operation,
        description: definition.description(server.serverName),
        inputSchema: definition.inputSchema,
        annotations: { readOnlyHint: true, openWorldHint: true },
        executionMode: server.settings.supportsParallelToolCalls ? 'parallel' : 'sequential',
      });
    }
  }
  tools.sort((a, b) => compare(a.name, b.name));
  return { tools, warnings };
}

function utilityOperations(catalog: ServerCatalog): UtilityOperation[] {
  return [...(catalog.resources ? (['resources_list', 'resources_read'] as const) : []), ...(catalog.prompts ? (['prompts_list', 'prompts_get'] as const) : [])];
}

/** The safe name for a tool, reserved; a warning when it differs from `<server>__<tool>`. */
function reserve(server: MaterializeInput, toolName: string, reserved: Set<string>, warnings: string[]): string {
  const name = buildSafeMcpToolName(server.safeServerName, toolName, reserved);
  reserved.add(name.toLowerCase());
  if (name !== `${server.serverName}${MCP_TOOL_NAME_SEPARATOR}${toolName}`) {
    warnings.push(`mcp: tool "${toolName}" of server "${server.serverName}" is served as "${name}" so that its name is safe for every model provider.`);
  }
  return name;
}
