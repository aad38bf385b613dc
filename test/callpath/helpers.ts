import type { KernelTool, ToolResult, HookRegistration, BeforeToolCallResult } from '../../kernel/gate/index.js';

/** A tool that records the params it ran with. */
export function recordingTool(name = 'read', extra: Partial<KernelTool> = {}): KernelTool & { calls: Record<string, unknown>[] } {
  const calls: Record<string, unknown>[] = [];
  return {
    name,
    description: `${name} tool`,
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
    calls,
    async execute(params): Promise<ToolResult> {
      calls.push(params);
      return { content: [{ type: 'text', text: `ran ${name}` }], details: { ok: true } };
    },
    ...extra,
  };
}

/** A hook with a fixed answer. */
export function hook(pluginId: string, answer: BeforeToolCallResult | undefined | unknown, priority?: number): HookRegistration {
  return { pluginId, priority, handler: async () => answer as BeforeToolCallResult };
}

export const ctx = (toolCallId = 'call-1') => ({ toolCallId });
