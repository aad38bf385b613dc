/**
 * What a tool declares beside its name and schema, as the kernel carries it from a plugin's
 * contribution to a run's ToolSet (and `pincer serve` to MCP clients): title, behaviour hints,
 * output schema, and whether tool search may defer it. MCP bridged tools are deferrable by
 * default; any other plugin tool only when it says so.
 */
import type { z } from 'zod';
import type { ToolAnnotations, ToolContribution, ToolResultContentBlocks } from '../../protocol/index.js';

export interface ToolMetadata {
  title?: string;
  annotations?: ToolAnnotations;
  outputSchema?: Record<string, unknown>;
  /** Tool search may leave it out of the listed definitions of a large run. */
  deferrable?: boolean;
}

/** Audio, resource links and embedded resources, as MCP servers return them. */
export type McpContentBlock = z.output<(typeof ToolResultContentBlocks)[number]>;

/** The metadata fields of a contribution, only those present (so descriptors stay small). */
export function toolMetadata(contribution: ToolContribution): ToolMetadata {
  const deferrable = contribution.deferrable ?? contribution.policyPluginId !== undefined;
  return {
    ...(contribution.title !== undefined ? { title: contribution.title } : {}),
    ...(contribution.annotations !== undefined ? { annotations: contribution.annotations } : {}),
    ...(contribution.outputSchema !== undefined ? { outputSchema: contribution.outputSchema } : {}),
    ...(deferrable ? { deferrable: true } : {}),
  };
}

/** The metadata fields a kernel tool carries, only those present. */
export function pickToolMetadata(tool: ToolMetadata): ToolMetadata {
  const { title, annotations, outputSchema, deferrable } = tool;
  return {
    ...(title !== undefined ? { title } : {}),
    ...(annotations !== undefined ? { annotations } : {}),
    ...(outputSchema !== undefined ? { outputSchema } : {}),
    ...(deferrable ? { deferrable } : {}),
  };
}
