/**
 * One MCP server session over the bridge's tool set (one client's run; closing the server closes
 * the bridge). The low-level `Server` is used (not `McpServer`) because our tools carry arbitrary
 * JSON Schemas, not zod shapes: `tools/list` passes them through as they were normalized, and
 * `tools/call` goes to `toolSet.execute`, i.e. through the gate, hooks and sandbox, exactly like
 * a model's call inside a host.
 */
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeRun } from '../format/tools-report.js';
import type { CliLogger } from '../logger.js';
import { CallToolRequestChecked, type CheckedCallParams } from './call-request.js';
import { errorResult, toMcpResult } from './mcp-result.js';
import { registerSkillPrompts } from './skill-prompts.js';
import type { ApprovalRouter } from './approvals.js';
import { askClientForApprovals, progressRelay } from './call-extras.js';
import { listedTool } from './listed-tool.js';
import { structuredContentFor } from './structured.js';
import { McpToolNames } from './tool-names.js';
import { TOOL_SEARCH_NAME } from '../../kernel/tool-search/search-tool.js';
import type { ToolSet } from '../kernel.js';
import type { ToolBridge } from './tool-bridge.js';

export interface McpServerOptions {
  version: string;
  logger: CliLogger;
  /** Routes approvals of this client's calls to it (elicitation); absent, approvals are refused. */
  approvals?: ApprovalRouter;
}

/** A tool set's client-facing names and its tools by name, computed once per assembly (a bridged set may hold thousands). */
interface ToolSetIndex {
  names: McpToolNames;
  byName: ReadonlyMap<string, ToolSet['tools'][number]>;
}
const indexOf = new WeakMap<object, ToolSetIndex>();
function indexed(toolSet: ToolSet): ToolSetIndex {
  let index = indexOf.get(toolSet);
  if (!index) {
    index = { names: new McpToolNames(toolSet.tools.map((t) => t.name)), byName: new Map(toolSet.tools.map((t) => [t.name, t])) };
    indexOf.set(toolSet, index);
  }
  return index;
}

export function createMcpServer(bridge: ToolBridge, options: McpServerOptions): Server {
  const server = new Server(
    { name: 'pincer', version: options.version },
    {
      capabilities: { tools: { listChanged: true }, ...(bridge.kernel.skills ? { prompts: { listChanged: true } } : {}) },
      instructions: `Tools of ${describeRun(bridge.run, bridge.toolSet)}, governed by Pincer policy. A call may be blocked by policy or hooks; the error text says why.${bridge.toolSet.skills?.prompt ?? ''}`,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const toolSet = bridge.toolSet;
    const { names } = indexed(toolSet);
    return { tools: toolSet.tools.map((tool) => listedTool(tool, names.mcpName(tool.name))) };
  });

  server.setRequestHandler(CallToolRequestChecked, async (request, extra): Promise<CallToolResult> => {
    const { name: asked, arguments: args, _meta } = request.params as CheckedCallParams;
    const toolSet = bridge.toolSet;
    const index = indexed(toolSet);
    const name = index.names.kernelName(asked);
    const started = performance.now();
    // Unique across clients: approvals are routed back to this client by it.
    const toolCallId = `mcp-${randomUUID()}`;
    const unregister = askClientForApprovals(server, options.approvals, toolCallId);
    try {
      const onProgress = progressRelay(_meta?.progressToken, (notification) => extra.sendNotification(notification));
      // Every outcome (a denied or unknown tool too) is the library's result, worded as in every door.
      const result = await toolSet.execute(name, args ?? {}, { signal: extra.signal, toolCallId, onProgress });
      // Tools a search found are listed from now on: re-assemble, and the client hears list_changed.
      if (name === TOOL_SEARCH_NAME && !result.isError) bridge.refresh();
      options.logger.debug(`tools/call ${name}: ${result.outcome}${result.code ? ` (${result.code})` : ''} in ${(performance.now() - started).toFixed(1)} ms`);
      const tool = index.byName.get(name);
      const structured = structuredContentFor(tool?.outputSchema, result);
      if (structured.problem) options.logger.warn(`tools/call ${name}: structured content does not match the output schema (${structured.problem}); sent what matches`);
      return { ...toMcpResult(result), ...(structured.value ? { structuredContent: structured.value } : {}) };
    } catch (cause) {
      // A thrown error (plugin crash, timeout, cancellation) is still a tool-level failure for MCP.
      const error = cause as { code?: unknown; message?: string };
      const code = typeof error.code === 'string' || typeof error.code === 'number' ? `${error.code}: ` : '';
      options.logger.warn(`tools/call ${name} failed: ${code}${error.message ?? String(cause)}`);
      return errorResult(`${name} failed: ${code}${error.message ?? String(cause)}`);
    } finally {
      unregister();
    }
  });

  const unsubscribe = bridge.onChange(() => {
    // Before initialization there is no one to tell; the client's first tools/list is current anyway.
    if (!server.transport) return;
    server.sendToolListChanged().catch((cause: Error) => options.logger.warn(`list_changed not sent: ${cause.message}`));
  });
  const unsubscribeSkills = registerSkillPrompts(server, bridge.kernel, () => bridge.run, options.logger);
  // The server owns its bridge: a closed client session leaves no kernel subscription behind.
  server.onclose = () => {
    unsubscribe();
    unsubscribeSkills();
    bridge.close();
  };
  return server;
}
