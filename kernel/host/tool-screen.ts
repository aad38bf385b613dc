/**
 * Checks a plugin's tool list where it enters (handshake, manifest, `tools/listChanged`), tool by
 * tool: a tool with a bad shape, name or schema is dropped with the reason, and the plugin's other
 * tools (and every other plugin's) stay. Deadlines are clamped to the operator's here, once.
 */
import * as z from 'zod';
import { ToolContribution } from '../../protocol/index.js';
import { DEFAULT_SCHEMA_LIMITS, SchemaLimitError, assertSchemaWithinLimits } from '../schema/index.js';
import { escapeForTerminal } from './escape.js';
import { canonicalToolName } from './tool-owners.js';

export type ToolRejectionCode = 'INVALID_TOOL' | 'SCHEMA_TOO_COMPLEX' | 'DUPLICATE_TOOL' | 'NAME_TAKEN' | 'CORE_TOOL_NOT_DESIGNATED';

/** A tool the kernel refused, and why (shown in the plugin's status and in `pincer tools`). */
export interface ToolRejection {
  /** The name as sent, escaped for display. */
  name: string;
  code: ToolRejectionCode;
  reason: string;
}

/** Most tools one plugin may contribute. */
export const MAX_TOOLS_PER_PLUGIN = 1_000;
/**
 * Schema nodes the kernel walks to check one tool list, refused schemas included (each of which
 * costs up to the per-schema limit): what a plugin's whole list may cost the event loop.
 */
export const MAX_SCHEMA_NODES_PER_LIST = 100_000;

function displayName(entry: unknown, index: number): string {
  const name = (entry as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? escapeForTerminal(name, { maxChars: 80 }) : `#${index}`;
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return escapeForTerminal(issue ? `${issue.path.join('.') || '(tool)'}: ${issue.message}` : error.message, { maxChars: 300 });
}

/** Screens a raw tool list. `callMs` is the operator's idle deadline, which a tool may only shorten. */
export function screenTools(raw: unknown, options: { pluginId: string; callMs: number }): { tools: ToolContribution[]; rejected: ToolRejection[] } {
  const tools: ToolContribution[] = [];
  const rejected: ToolRejection[] = [];
  const list = Array.isArray(raw) ? raw.slice(0, MAX_TOOLS_PER_PLUGIN) : [];
  if (!Array.isArray(raw)) rejected.push({ name: '(tools)', code: 'INVALID_TOOL', reason: `plugin "${options.pluginId}" sent a tool list that is not an array` });
  else if (raw.length > list.length) {
    rejected.push({ name: '(tools)', code: 'INVALID_TOOL', reason: `plugin "${options.pluginId}" sent ${raw.length} tools; only the first ${MAX_TOOLS_PER_PLUGIN} are considered` });
  }
  const seen = new Set<string>();
  let work = 0;
  list.forEach((entry, index) => {
    const name = displayName(entry, index);
    const refuse = (code: ToolRejectionCode, why: string): void => void rejected.push({ name, code, reason: `plugin "${options.pluginId}" tool ${JSON.stringify(name)}: ${why}` });
    const parsed = ToolContribution.safeParse(entry);
    if (!parsed.success) return refuse('INVALID_TOOL', firstIssue(parsed.error));
    const tool = parsed.data;
    const key = canonicalToolName(tool.name);
    if (seen.has(key)) return refuse('DUPLICATE_TOOL', `a tool of the same name (${key}) comes earlier in the list`);
    // Both schemas are walked by kernel code (the output schema by `pincer serve`'s validator), so
    // both are bounded alike. A bad output schema drops the whole tool, as a bad input schema does:
    // serving the tool without the schema would silently change what it promises MCP clients.
    for (const [field, schema] of [['inputSchema', tool.inputSchema], ['outputSchema', tool.outputSchema]] as const) {
      if (schema === undefined) continue;
      const left = MAX_SCHEMA_NODES_PER_LIST - work;
      if (left <= 0) return refuse('SCHEMA_TOO_COMPLEX', `${field} refused (the plugin's schemas together have more than ${MAX_SCHEMA_NODES_PER_LIST} nodes)`);
      try {
        work += assertSchemaWithinLimits(schema, left);
      } catch (error) {
        const cut = left < DEFAULT_SCHEMA_LIMITS.maxNodes;
        work += Math.min(left, DEFAULT_SCHEMA_LIMITS.maxNodes); // what the failed check cost, at most
        const why = cut ? `the plugin's schemas together have more than ${MAX_SCHEMA_NODES_PER_LIST} nodes` : (error as Error).message;
        if (error instanceof SchemaLimitError) return refuse('SCHEMA_TOO_COMPLEX', `${field} refused (${why})`);
        return refuse('INVALID_TOOL', `${field} cannot be normalized: ${escapeForTerminal(String((error as Error)?.message ?? error), { maxChars: 200 })}`);
      }
    }
    seen.add(key);
    tools.push({
      ...tool,
      description: escapeForTerminal(tool.description, { keepNewlines: true }),
      ...(tool.timeoutMs !== undefined ? { timeoutMs: Math.min(tool.timeoutMs, options.callMs) } : {}),
    });
  });
  return { tools, rejected };
}
