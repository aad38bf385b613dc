/**
 * Whether a run's tools are too many to list, and if so which are left out: once the policy has
 * decided (only tools the run may hold take part), a run over `maxListedTools` tools or
 * `maxDefinitionChars` of definitions lists its non-deferrable tools, the deferrable ones its
 * session already found, and `tool_search`; the other deferrable tools are callable only after a
 * search found them.
 */
import { normalizeToolPolicyName } from '../../sdk/policy/index.js';
import type { KernelTool } from '../gate/index.js';
import { DEFAULT_MAX_DEFINITION_CHARS, DEFAULT_MAX_LISTED_TOOLS, type ToolSearchConfig } from './config.js';
import { ToolIndex } from './rank.js';
import { createToolSearchTool, TOOL_SEARCH_NAME } from './search-tool.js';

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
function definitionChars(tool: KernelTool): number {
  let size = sizes.get(tool.parameters);
  if (size === undefined) sizes.set(tool.parameters, (size = JSON.stringify(tool.parameters).length));
  return size + tool.name.length + tool.description.length;
}

function isActive(tools: readonly KernelTool[], config: ToolSearchConfig | undefined): boolean {
  const enabled = config?.enabled ?? 'auto';
  if (enabled === false || !tools.some((tool) => tool.deferrable)) return false;
  if (enabled === true) return true;
  if (tools.length > (config?.maxListedTools ?? DEFAULT_MAX_LISTED_TOOLS)) return true;
  const budget = config?.maxDefinitionChars ?? DEFAULT_MAX_DEFINITION_CHARS;
  let chars = 0;
  for (const tool of tools) if ((chars += definitionChars(tool)) > budget) return true;
  return false;
}

/** Search indexes by the policy result they were built from: a run shape seen before searches the index it built. */
const indexes = new WeakMap<object, ToolIndex<KernelTool>>();

/**
 * `cacheKey` is an object that stays the same while the run's tools do (the policy's result list),
 * so an index of thousands of definitions is built once, not at each assembly.
 */
export function planToolSearch(tools: readonly KernelTool[], config: ToolSearchConfig | undefined, discovered: Set<string>, cacheKey: object = tools): ToolSearchPlan | undefined {
  // A plugin's own tool of that name wins; the run then lists everything.
  if (tools.some((tool) => normalizeToolPolicyName(tool.name) === TOOL_SEARCH_NAME) || !isActive(tools, config)) return undefined;
  const deferred = tools.filter((tool) => tool.deferrable);
  const always = tools.filter((tool) => !tool.deferrable);
  const search = createToolSearchTool(deferred, discovered, () => {
    let index = indexes.get(cacheKey);
    if (!index) indexes.set(cacheKey, (index = new ToolIndex(deferred)));
    return index;
  });
  let listed: KernelTool[] | undefined;
  let seen = -1;
  return {
    all: [...tools, search],
    listed() {
      if (seen !== discovered.size) {
        seen = discovered.size;
        listed = [...always, search, ...deferred.filter((tool) => discovered.has(tool.name))];
      }
      return listed!;
    },
    notLoaded(name) {
      const tool = deferred.find((t) => normalizeToolPolicyName(t.name) === normalizeToolPolicyName(name));
      if (!tool || discovered.has(tool.name)) return undefined;
      return `Tool "${tool.name}" is available but not loaded yet: call ${TOOL_SEARCH_NAME} to find it (its definition comes back in the result), then call it.`;
    },
  };
}
