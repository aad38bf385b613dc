/**
 * `tool_search`: the tool a large run gets in place of its deferred tools' definitions. It
 * searches them by keywords or a regular expression and returns the best matches' full
 * definitions; each one found is callable (and listed) for the rest of the session's run.
 */
import type { KernelTool, ToolResult } from '../gate/index.js';
import { compilePattern, ToolIndex } from './rank.js';

export const TOOL_SEARCH_NAME = 'tool_search';
const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;

const PARAMETERS = {
  type: 'object',
  properties: {
    query: { type: 'string', description: 'Keywords to look for in tool names and descriptions, e.g. "create github issue".' },
    pattern: { type: 'string', description: 'Instead of query: a regular expression (case-insensitive) matched against names and descriptions, e.g. "^github__".' },
    limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: `Most tools to return (default ${DEFAULT_LIMIT}).` },
  },
  additionalProperties: false,
} as const;

function failure(text: string): ToolResult {
  return { content: [{ type: 'text', text: `Error: ${text}` }], details: { status: 'error', tool: TOOL_SEARCH_NAME, error: text }, isError: true };
}

/** Where the deferred tools come from, for the description: MCP servers by their prefix. */
function sources(deferred: readonly SearchableTool[]): string {
  const prefixes = [...new Set(deferred.map((tool) => (tool.name.includes('__') ? tool.name.slice(0, tool.name.indexOf('__')) : (tool.pluginId ?? 'other'))))].sort();
  return prefixes.length > 8 ? `${prefixes.slice(0, 8).join(', ')} and ${prefixes.length - 8} more` : prefixes.join(', ');
}

/** A tool as tool search sees it: a kernel tool's definition, without its `execute`. */
export type ToolDefinition = Omit<KernelTool, 'execute'>;
export type SearchableTool = Pick<ToolDefinition, 'name' | 'description' | 'parameters' | 'deferrable' | 'pluginId'>;

/** `tool_search` as listed, for one set of deferred tools. */
export function toolSearchDefinition(deferred: readonly SearchableTool[]): ToolDefinition {
  return Object.freeze({
    name: TOOL_SEARCH_NAME,
    description: `Find tools that are available to you but not listed: ${deferred.length} more tools (from ${sources(deferred)}). Search by keywords or a regular expression; the matching tools' definitions are returned and you can call them from then on.`,
    parameters: PARAMETERS as unknown as Record<string, unknown>,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  });
}

/** What the search tool needs of a layout (see plan.ts): its definition and the deferred tools' index. */
export interface SearchSource<T extends SearchableTool> {
  readonly deferred: readonly T[];
  readonly definition: ToolDefinition;
  index(): ToolIndex<T>;
}

/** `tool_search` for one session: each tool it finds is added to `discovered`. */
export function bindToolSearch<T extends SearchableTool>(source: SearchSource<T>, discovered: Set<string>): KernelTool {
  const { deferred } = source;
  return {
    ...source.definition,
    async execute(params): Promise<ToolResult> {
      const { query, pattern, limit } = params as { query?: unknown; pattern?: unknown; limit?: unknown };
      const count = typeof limit === 'number' && Number.isInteger(limit) ? Math.min(Math.max(limit, 1), MAX_LIMIT) : DEFAULT_LIMIT;
      const byKeywords = typeof query === 'string' && query.trim() !== '';
      const byPattern = typeof pattern === 'string' && pattern !== '';
      if (byKeywords === byPattern) return failure('give exactly one of query (keywords) or pattern (a regular expression)');
      const index = source.index();
      let found: T[];
      if (byPattern) {
        const regex = compilePattern(pattern as string);
        if (typeof regex === 'string') return failure(`pattern refused: ${regex}`);
        found = index.pattern(regex, count);
      } else found = index.keywords(String(query), count);
      for (const tool of found) discovered.add(tool.name);
      const matches = found.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters }));
      const text = matches.length === 0 ? `No tool matches. ${deferred.length} tools can be searched; try other words.` : JSON.stringify({ matches, note: 'These tools are now callable.' }, null, 2);
      return { content: [{ type: 'text', text }], details: { matched: found.map((tool) => tool.name), searched: deferred.length } };
    },
  };
}
