/**
 * What every provider adapter takes: a run's tool definitions (`toolSet.tools`, or anything with
 * a name, a description and a JSON Schema of its arguments), and the name rules each provider
 * documents for a function name.
 */
import { ProviderToolError } from './errors.js';

export interface ProviderToolInput {
  name: string;
  description?: string;
  inputSchema: object;
}

export type ProviderId = 'openai' | 'anthropic' | 'gemini';

/** Each provider's documented function-name rule. */
const NAME_RULES: Record<ProviderId, { pattern: RegExp; rule: string }> = {
  openai: { pattern: /^[A-Za-z0-9_-]{1,64}$/, rule: 'letters, digits, "_" and "-", 1 to 64 characters' },
  anthropic: { pattern: /^[A-Za-z0-9_-]{1,64}$/, rule: 'letters, digits, "_" and "-", 1 to 64 characters' },
  gemini: { pattern: /^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$/, rule: 'a letter or "_" first, then letters, digits, "_", ".", ":" and "-", at most 64 characters' },
};

/** Throws INVALID_TOOL_NAME for a name the provider would reject (a renamed tool could not be routed back). */
export function checkToolName(provider: ProviderId, name: string): void {
  const { pattern, rule } = NAME_RULES[provider];
  if (!pattern.test(name)) {
    throw new ProviderToolError('INVALID_TOOL_NAME', `tool "${name}" cannot be sent to ${provider}: a function name must be ${rule}`, provider, name);
  }
}
