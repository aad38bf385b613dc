/**
 * `tools.toolSearch` in the config: when a run's listed tools would pass `maxListedTools` or
 * `maxDefinitionChars` (the JSON size of their definitions), its deferrable tools are left out
 * and a `tool_search` tool finds them. `enabled: false` lists everything; `true` always defers.
 */
import * as z from 'zod';

export const DEFAULT_MAX_LISTED_TOOLS = 40;
export const DEFAULT_MAX_DEFINITION_CHARS = 40_000;

export const ToolSearchConfigSchema = z.strictObject({
  enabled: z.union([z.boolean(), z.literal('auto')]).optional(),
  maxListedTools: z.number().int().positive().max(100_000).optional(),
  maxDefinitionChars: z.number().int().positive().max(100_000_000).optional(),
});
export type ToolSearchConfig = z.input<typeof ToolSearchConfigSchema>;
