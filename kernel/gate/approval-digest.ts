import { createHash } from 'node:crypto';
import { stableStringify } from '../shared/stable-stringify.js';
import type { KernelTool } from './types.js';

/**
 * What an approval is bound to: the tool's definition (as the model and operator see it),
 * the exact params, and the sandbox profile the call will run under. Extends the reference:
 * if any of the three changes between approval and execution, the approval is void.
 */
export function approvalDigest(tool: Pick<KernelTool, 'name' | 'description' | 'parameters' | 'pluginId'>, params: unknown, sandboxProfile: unknown): string {
  const bound = {
    tool: { name: tool.name, description: tool.description, parameters: tool.parameters, pluginId: tool.pluginId ?? null },
    params,
    sandboxProfile: sandboxProfile ?? null,
  };
  return `sha256:${createHash('sha256').update(stableStringify(bound)).digest('hex')}`;
}
