/**
 * One MCP server session over the bridge's tool set (one client's run; closing the server closes
 * the bridge). The low-level `Server` is used (not `McpServer`) because our tools carry arbitrary
 * JSON Schemas, not zod shapes: `tools/list` passes them through as they were normalized, and
 * `tools/call` goes to `toolSet.execute`, i.e. through the gate, hooks and sandbox, exactly like
 * a model's call inside a host.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeRun } from '../format/tools-report.js';
import type { CliLogger } from '../logger.js';
import { CallToolRequestChecked, type CheckedCallParams } from './call-request.js';
import { errorResult, toMcpResult, toMcpTool } from './mcp-result.js';
import { registerSkillPrompts } from './skill-prompts.js';
import type { ToolBridge } from './tool-bridge.js';

export interface McpServerOptions {
  version: string;
  logger: CliLogger;
}

export function createMcpServer(bridge: ToolBridge, options: McpServerOptions): Server {
  const server = new Server(
    { name: 'pincer', version: options.version },
    {
      capabilities: { tools: { listChanged: true }, ...(bridge.kernel.skills ? { prompts: { listChanged: true } } : {}) },
      instructions: `Tools of ${describeRun(bridge.run, bridge.toolSet)}, governed by Pincer policy. A call may be blocked by policy or hooks; the error text says why.${bridge.toolSet.skills?.prompt ?? ''}`,
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: bridge.toolSet.tools.map(toMcpTool),
  }));

  server.setRequestHandler(CallToolRequestChecked, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params as CheckedCallParams;
    const toolSet = bridge.toolSet;
    const started = performance.now();
    try {
      // Every outcome (a denied or unknown tool too) is the library's result, worded as in every door.
      const result = await toolSet.execute(name, args ?? {}, { signal: extra.signal, toolCallId: `mcp-${String(extra.requestId)}` });
      options.logger.debug(`tools/call ${name}: ${result.outcome}${result.code ? ` (${result.code})` : ''} in ${(performance.now() - started).toFixed(1)} ms`);
      return toMcpResult(result);
    } catch (cause) {
      // A thrown error (plugin crash, timeout, cancellation) is still a tool-level failure for MCP.
      const error = cause as { code?: unknown; message?: string };
      const code = typeof error.code === 'string' || typeof error.code === 'number' ? `${error.code}: ` : '';
      options.logger.warn(`tools/call ${name} failed: ${code}${error.message ?? String(cause)}`);
      return errorResult(`${name} failed: ${code}${error.message ?? String(cause)}`);
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
