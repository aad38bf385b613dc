/**
 * Binding a run shape's planned tools to one run: a plugin tool's calls reach its plugin under
 * the run's session (and are registered for the turn services), a memory run's write appends
 * through the session's backend, a family tool is the one bound to the run at assembly, and
 * tool_search adds what it finds to the session's discovered tools. Called on the first call
 * that names a tool, so assembling a run costs the same whatever the number of its tools.
 */
import type { KernelTool } from '../gate/index.js';
import type { PluginHost } from '../host/index.js';
import { bindToolSearch } from '../tool-search/search-tool.js';
import type { SessionPlacement, WorkspaceRouter } from '../workspace/router.js';
import { memoryWriteTool } from './memory-run.js';
import { pluginKernelTool, type CallBinding } from './plugin-tool.js';
import type { PlannedTool, ToolPlan } from './tool-plan.js';

export interface RunToolsBinding extends CallBinding {
  placement: SessionPlacement;
  memoryWritePath: string | undefined;
  /** The run's family tools (bound at assembly: there are at most three). */
  families: readonly KernelTool[];
  /** What the run's session found through tool_search. */
  discovered: Set<string>;
}

export function runToolBinder(plan: ToolPlan, host: PluginHost, router: WorkspaceRouter, binding: RunToolsBinding): (tool: PlannedTool) => KernelTool {
  return (tool) => {
    switch (tool.kind) {
      case 'plugin':
        return pluginKernelTool(tool.definition, tool.source, host, router, binding);
      case 'memory-write':
        return memoryWriteTool(tool.definition, binding.memoryWritePath!, router, binding.sessionKey, binding.placement);
      case 'family':
        return binding.families.find((family) => family.name === tool.name)!;
      case 'search':
        return bindToolSearch(plan.search!, binding.discovered);
    }
  };
}
