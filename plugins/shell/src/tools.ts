import type { ToolDefinition } from '../../../sdk/plugin-api.js';
import { BackgroundRegistry } from './background/registry.js';
import { createExecTool } from './tools/exec.js';
import { createProcessTool } from './tools/process.js';
import { withShellMetadata } from './tools/metadata.js';

export const SHELL_PLUGIN = { id: 'shell', version: '0.1.0', family: 'shell' } as const;

/** The shell family: exec and process share one registry of background runs. */
export function createShellTools(registry: BackgroundRegistry): ToolDefinition<any>[] {
  return [createExecTool(registry), createProcessTool(registry)].map(withShellMetadata);
}
