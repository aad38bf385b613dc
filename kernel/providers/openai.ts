/**
 * A run's tools as OpenAI function tools: Chat Completions (`{type, function: {...}}`, the
 * default) or the Responses API (flat). Parameters are the kernel's schema normalization for
 * OpenAI with a plain object root; with `strict: true` each tool gets strict mode where its
 * schema allows it, and is sent non-strict, with a warning naming why, where it does not.
 * `strict` is always set explicitly (the Responses API would otherwise default it to true).
 */
import { normalizeToolSchema } from '../schema/index.js';
import type { JSONSchema } from '../gate/types.js';
import { toStrictSchema } from './openai-strict.js';
import { plainObjectRoot } from './root-object.js';
import { checkToolName, type ProviderToolInput } from './tool-input.js';

export interface OpenAIToolOptions {
  /** Strict mode (Structured Outputs): the model's arguments always match the schema. */
  strict?: boolean;
  /** Receives the reason a tool was sent non-strict under `strict: true`. */
  onWarning?: (message: string) => void;
}

export interface OpenAIFunction {
  name: string;
  description: string;
  parameters: JSONSchema;
  strict: boolean;
}

export interface OpenAIChatTool {
  type: 'function';
  function: OpenAIFunction;
}

export type OpenAIResponsesTool = { type: 'function' } & OpenAIFunction;

export function toOpenAITools(tools: readonly ProviderToolInput[], options?: OpenAIToolOptions & { api?: 'chat' }): OpenAIChatTool[];
export function toOpenAITools(tools: readonly ProviderToolInput[], options: OpenAIToolOptions & { api: 'responses' }): OpenAIResponsesTool[];
export function toOpenAITools(tools: readonly ProviderToolInput[], options: OpenAIToolOptions & { api?: 'chat' | 'responses' } = {}): (OpenAIChatTool | OpenAIResponsesTool)[] {
  return tools.map((tool) => {
    const fn = openAIFunction(tool, options);
    return options.api === 'responses' ? { type: 'function', ...fn } : { type: 'function', function: fn };
  });
}

function openAIFunction(tool: ProviderToolInput, options: OpenAIToolOptions): OpenAIFunction {
  checkToolName('openai', tool.name);
  const parameters = plainObjectRoot(normalizeToolSchema(tool.inputSchema, { provider: 'openai' }));
  const base = { name: tool.name, description: tool.description ?? '' };
  if (!options.strict) return { ...base, parameters, strict: false };
  const strict = toStrictSchema(parameters);
  if (strict.ok) return { ...base, parameters: strict.schema, strict: true };
  options.onWarning?.(`tool "${tool.name}" is sent without strict mode: ${strict.reason}`);
  return { ...base, parameters, strict: false };
}
