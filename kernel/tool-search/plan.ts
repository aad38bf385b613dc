/**
 * Whether a run's tools are too many to list, and if so which are left out: once the policy has
 * decided (only tools the run may hold take part), a run over `maxListedTools` tools or
 * `maxDefinitionChars` of definitions lists its non-deferrable tools, the deferrable ones its
 * session already found, and `tool_search`; the other deferrable tools are callable only after a
 * search found them.
 *
 * The layout (which tools are deferred, tool_search's definition, the search index) depends only
 * on the tools, so the kernel builds it once per run shape; what a session found is applied per
 * view (`listed`, `notLoaded`, the search tool bound to the session's set).
 */
import { normalizeToolPolicyName } from '../../sdk/policy/index.js';
import type { KernelTool } from '../gate/index.js';
import { DEFAULT_MAX_DEFINITION_CHARS, DEFAULT_MAX_LISTED_TOOLS, type ToolSearchConfig } from './config.js';
import { ToolIndex } from './rank.js';
import { bindToolSearch, toolSearchDefinition, TOOL_SEARCH_NAME, type SearchableTool, type ToolDefinition } from './search-tool.js';

export interface ToolSearchPlan {
  /** Every tool a call may name: listed, deferred and `tool_search`. */
  all: KernelTool[];
  /** What the model is shown now (grows as searches find tools). */
  listed(): KernelTool[];
  /** Why a deferred tool not found yet cannot be called; undefined when the call may go ahead. */
  notLoaded(name: string): string | undefined;
}

/** Definition sizes, cached by schema object (normalized schemas are cached, so the same object recurs). */
const sizes = new WeakMap<object, number>();
function definitionChars(tool: SearchableTool): number {
  let size = sizes.get(tool.parameters);
  if (size === undefined) sizes.set(tool.parameters, (size = JSON.stringify(tool.parameters).length));
  return size + tool.name.length + tool.description.length;
}

function isActive(tools: readonly SearchableTool[], config: ToolSearchConfig | undefined): boolean {
  const enabled = config?.enabled ?? 'auto';
  if (enabled === false || !tools.some((tool) => tool.deferrable)) return false;
  if (enabled === true) return true;
  if (tools.length > (config?.maxListedTools ?? DEFAULT_MAX_LISTED_TOOLS)) return true;
  const budget = config?.maxDefinitionChars ?? DEFAULT_MAX_DEFINITION_CHARS;
  let chars = 0;
  for (const tool of tools) if ((chars += definitionChars(tool)) > budget) return true;
  return false;
}

/** Tool search for one set of tools, shared by every session that holds them. */
export interface SearchLayout<T extends SearchableTool> {
  readonly deferred: readonly T[];
  readonly always: readonly T[];
  /** `tool_search` as listed: its description counts and names the deferred tools' sources. */
  readonly definition: ToolDefinition;
  /** The deferred tools' index, built on the first search. */
  index(): ToolIndex<T>;
  /** What a session that found `discovered` is shown: always-listed, tool_search, then what it found. */
  listed<S>(discovered: ReadonlySet<string>, searchTool: S): (T | S)[];
  /** Why `tool` cannot be called yet by a session that found `discovered` (undefined when it can). */
  notLoaded(tool: T, discovered: ReadonlySet<string>): string | undefined;
}

/** The layout, or undefined when the run lists everything (small, nothing deferrable, or a plugin's own `tool_search`). */
export function layoutToolSearch<T extends SearchableTool>(tools: readonly T[], config: ToolSearchConfig | undefined): SearchLayout<T> | undefined {
  // A plugin's own tool of that name wins; the run then lists everything.
  if (tools.some((tool) => normalizeToolPolicyName(tool.name) === TOOL_SEARCH_NAME) || !isActive(tools, config)) return undefined;
  const deferred = tools.filter((tool) => tool.deferrable);
  const always = tools.filter((tool) => !tool.deferrable);
  let index: ToolIndex<T> | undefined;
  return {
    deferred,
    always,
    definition: toolSearchDefinition(deferred),
    index: () => (index ??= new ToolIndex(deferred)),
    listed: (discovered, searchTool) => [...always, searchTool, ...deferred.filter((tool) => discovered.has(tool.name))],
    notLoaded(tool, discovered) {
      if (!tool.deferrable || discovered.has(tool.name)) return undefined;
      return `Tool "${tool.name}" is available but not loaded yet: call ${TOOL_SEARCH_NAME} to find it (its definition comes back in the result), then call it.`;
    },
  };
}

/** One session's view of a set of kernel tools: the layout with its discovered tools applied. */
export function planToolSearch(tools: readonly KernelTool[], config: ToolSearchConfig | undefined, discovered: Set<string>): ToolSearchPlan | undefined {
  const layout = layoutToolSearch(tools, config);
  if (!layout) return undefined;
  const search = bindToolSearch(layout, discovered);
  const byName = new Map(tools.map((tool) => [normalizeToolPolicyName(tool.name), tool]));
  return {
    all: [...tools, search],
    listed: () => layout.listed(discovered, search),
    notLoaded(name) {
      const tool = byName.get(normalizeToolPolicyName(name));
      return tool ? layout.notLoaded(tool, discovered) : undefined;
    },
  };
}
