/**
 * A run's tools as Anthropic Messages API tools: `{name, description, input_schema}`. Anthropic
 * takes full JSON Schema, so the schema is the kernel's normalization with only the root made a
 * plain object (the API refuses anyOf/oneOf/allOf at the top level).
 */
import type { JSONSchema } from '../gate/types.js';
import { normalizeToolSchema } from '../schema/index.js';
import { plainObjectRoot } from './root-object.js';
import { checkToolName, type ProviderToolInput } from './tool-input.js';

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JSONSchema & { type: 'object' };
}

export function toAnthropicTools(tools: readonly ProviderToolInput[]): AnthropicTool[] {
  return tools.map((tool) => {
    checkToolName('anthropic', tool.name);
    const inputSchema = plainObjectRoot(normalizeToolSchema(tool.inputSchema, { provider: 'anthropic' })) as AnthropicTool['input_schema'];
    return { name: tool.name, description: tool.description ?? '', input_schema: inputSchema };
  });
}
