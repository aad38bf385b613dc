/**
 * Runs one bridged tool: connects the server if this is its first use, sends `tools/call` (or
 * the utility request) with the tool's idle deadline, restarted by each progress report the
 * server sends (which also keeps the kernel's call alive) up to the server's hard cap, and
 * forwards cancellation (the SDK sends `notifications/cancelled`). Everything but a
 * cancellation ends as a result.
 */
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext } from '../../../../sdk/plugin-api.js';
import type { ToolInvokeResult } from '../../../../protocol/index.js';
import { toolTimeout } from '../config.js';
import type { BridgedTool } from '../catalog/types.js';
import type { ServerConnection } from '../servers/connection.js';
import { describeServerError, isUnauthorized, ServerUnavailableError, unauthorizedHint } from '../servers/errors.js';
import { failureResult, jsonToolResult, toolCallResult } from './results.js';

export async function callBridgedTool(connection: ServerConnection, tool: BridgedTool, args: Record<string, unknown>, ctx: ToolContext): Promise<ToolInvokeResult> {
  const { settings } = connection;
  const timeout = toolTimeout(settings, tool.toolName);
  const options = {
    signal: ctx.signal,
    timeout,
    resetTimeoutOnProgress: true,
    maxTotalTimeout: Math.max(timeout, settings.maxTotalTimeoutMs),
    onprogress: (p: { progress: number; total?: number; message?: string }) => ctx.progress({ progress: p.progress, total: p.total, message: p.message }),
  };
  try {
    const client = await connection.client();
    switch (tool.operation) {
      case 'tool':
        return toolCallResult(tool, (await client.callTool({ name: tool.toolName, arguments: args }, undefined, options)) as never);
      case 'resources_list':
        return jsonToolResult(tool, await client.listResources(cursorOf(args), options));
      case 'resources_read':
        return jsonToolResult(tool, await client.readResource({ uri: String(args.uri ?? '') }, options));
      case 'prompts_list':
        return jsonToolResult(tool, await client.listPrompts(cursorOf(args), options));
      case 'prompts_get':
        return jsonToolResult(tool, await client.getPrompt({ name: String(args.name ?? ''), arguments: stringMap(args.arguments) }, options));
    }
  } catch (error) {
    if (ctx.signal.aborted) throw error;
    return failureResult(tool, explain(connection, tool, error, timeout), { retryable: error instanceof ServerUnavailableError || isTimeout(error) });
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof McpError && error.code === ErrorCode.RequestTimeout;
}

function explain(connection: ServerConnection, tool: BridgedTool, error: unknown, timeout: number): string {
  const what = `MCP server "${tool.serverName}", tool "${tool.toolName}"`;
  if (error instanceof ServerUnavailableError) return error.message;
  if (isTimeout(error)) {
    return `${what} did not answer within ${timeout} ms without reporting progress (or passed its ${connection.settings.maxTotalTimeoutMs} ms cap); the call was cancelled on the server.`;
  }
  if (isUnauthorized(error)) return `${what}: the server answered 401 Unauthorized.${unauthorizedHint(tool.serverName, connection.settings)}`;
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return `${what} failed: the server closed the connection during the call${connection.stderrTail()}`;
  if (error instanceof McpError) return `${what} failed: ${error.message}`;
  return describeServerError(tool.serverName, connection.settings, error);
}

function cursorOf(args: Record<string, unknown>): { cursor?: string } {
  return typeof args.cursor === 'string' ? { cursor: args.cursor } : {};
}

function stringMap(value: unknown): Record<string, string> | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, typeof v === 'string' ? v : JSON.stringify(v)]));
}
