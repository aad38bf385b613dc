/**
 * A contributed tool as a kernel tool: `execute` runs it in its plugin's process, with the
 * call bound to the run's session so the plugin's workspace requests reach its sandbox.
 */
import type { KernelTool, ToolResult } from '../gate/index.js';
import type { PluginHost } from '../host/index.js';
import type { SessionPlacement, WorkspaceRouter } from '../workspace/router.js';
import type { SurfaceTool } from './surface.js';
import { toolMetadata } from '../tool-search/metadata.js';
import type { ToolDefinition } from '../tool-search/search-tool.js';

export interface CallBinding {
  sessionKey: string;
  agentId: string;
  placement: SessionPlacement;
  /** Registers the call for the turn services; the token goes into the call's context. */
  beginCall?: (pluginId: string) => { token: string; end: () => void };
}

/** The tool as listed: what every run of a shape shares (frozen), before it is bound to a run. */
export function pluginToolDefinition(tool: SurfaceTool, parameters: Record<string, unknown>): ToolDefinition {
  const { contribution } = tool;
  return Object.freeze({
    name: contribution.name,
    description: contribution.description,
    parameters,
    pluginId: tool.servedBy,
    executionMode: contribution.executionMode,
    ...toolMetadata(contribution),
  });
}

/** `definition` bound to one run: its calls reach the plugin under the run's session. */
export function pluginKernelTool(definition: ToolDefinition, tool: SurfaceTool, host: PluginHost, router: WorkspaceRouter, binding: CallBinding): KernelTool {
  const { contribution } = tool;
  return {
    ...definition,
    async execute(params, ctx): Promise<ToolResult> {
      // The plugin sees its session's handle, never a bare key another agent could share.
      const { session, channel, end } = router.beginCall(tool.servedBy, binding.sessionKey, binding.placement);
      const registered = binding.beginCall?.(tool.servedBy);
      try {
        const result = await host.invokeTool(tool.servedBy, contribution.name, params, {
          signal: ctx.signal,
          onProgress: ctx.onProgress,
          sessionKey: session,
          agentId: binding.agentId,
          toolCallId: ctx.toolCallId,
          callToken: registered?.token,
          workspaceChannel: channel,
        });
        const details = result.details;
        return {
          content: result.content,
          ...(details && typeof details === 'object' && !Array.isArray(details) ? { details: details as Record<string, unknown> } : details !== undefined ? { details: { value: details } } : {}),
          ...(result.isError ? { isError: true } : {}),
          ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}),
        };
      } finally {
        registered?.end();
        end();
      }
    },
  };
}
