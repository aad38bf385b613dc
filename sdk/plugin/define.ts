import * as z from 'zod';
import { adminCapability, resolveLazySchemaTree, type ContributionsInput, type SandboxAdminOperation, type ToolContribution } from '../../protocol/index.js';
import type { PluginDefinition, ToolDefinition } from './types.js';

/** Declares a plugin; checks it eagerly so a mistake fails at load, not at the first call. @since 1 */
export function definePlugin<P extends PluginDefinition>(plugin: P): P {
  if (!plugin.id) throw new TypeError('definePlugin: `id` is required');
  if (!plugin.version) throw new TypeError(`definePlugin(${plugin.id}): \`version\` is required`);
  const seen = new Set<string>();
  for (const t of plugin.tools ?? []) {
    if (seen.has(t.name)) throw new TypeError(`definePlugin(${plugin.id}): tool "${t.name}" is declared twice`);
    seen.add(t.name);
  }
  return plugin;
}

/** Declares one tool with its params typed from a zod schema. @since 1 */
export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}

export function isZodSchema(value: unknown): value is z.ZodType {
  return value instanceof z.ZodType;
}

/** The wire form of one tool (zod schemas become JSON Schema). */
export function toolContribution(tool: ToolDefinition<any>, defaultFamily: string): ToolContribution {
  const inputSchema = isZodSchema(tool.inputSchema)
    ? (z.toJSONSchema(resolveLazySchemaTree(tool.inputSchema), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>)
    : tool.inputSchema;
  const { handler: _h, ...rest } = tool;
  return { ...rest, family: tool.family ?? defaultFamily, inputSchema };
}

/** What the plugin answers in the handshake's `contributes` (lists added after v1.0 only when non-empty). */
export function pluginContributions(plugin: PluginDefinition): ContributionsInput {
  const family = plugin.family ?? plugin.id;
  const hooks = Object.entries(plugin.hooks ?? {}).flatMap(([name, h]) =>
    h ? [{ name: name as 'before_tool_call' | 'after_tool_call', priority: h.priority, tools: h.tools, timeoutMs: h.timeoutMs }] : [],
  );
  return {
    tools: (plugin.tools ?? []).map((t) => toolContribution(t, family)),
    sandboxBackends: (plugin.sandboxBackends ?? []).map((b) => ({ id: b.id, capabilities: [...Object.keys(b.operations), ...Object.keys(b.admin ?? {}).map((op) => adminCapability(op as SandboxAdminOperation))] })),
    skillSources: (plugin.skillSources ?? []).map((s) => ({ label: s.label, rank: s.rank, scope: s.scope ?? 'global' })),
    hooks,
    ...(plugin.channels?.length ? { channels: plugin.channels.map((c) => ({ id: c.id, actions: [...c.actions], ...(c.description ? { description: c.description } : {}) })) } : {}),
    ...(plugin.nodes?.length ? { nodes: plugin.nodes.map((n) => ({ id: n.id, ...(n.name ? { name: n.name } : {}), ...(n.platform ? { platform: n.platform } : {}), commands: Object.keys(n.commands) })) } : {}),
  };
}
