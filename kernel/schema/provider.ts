/** Which cleaning a provider's tool schemas need. */
export type SchemaProviderFamily = 'gemini' | 'openai' | 'anthropic' | 'generic';

/** Who the schema is for. */
export interface SchemaTarget {
  /** Provider id, e.g. `openai`, `anthropic`, `google`, `google-vertex`, `openrouter`. */
  provider?: string;
  modelId?: string;
  compat?: {
    /** Strip empty `items` instead of adding them. */
    omitEmptyArrayItems?: boolean;
    /** Keywords the model rejects, stripped everywhere (e.g. validation keywords for xAI). */
    unsupportedKeywords?: readonly string[];
  };
}

/** Gemini when the provider or model says so, unless the provider is Anthropic's (SPEC §9.2). */
export function schemaProviderFamily(target: SchemaTarget): SchemaProviderFamily {
  const provider = (target.provider ?? '').toLowerCase();
  const model = (target.modelId ?? '').toLowerCase();
  if (provider.includes('anthropic')) return 'anthropic';
  if (provider.includes('google') || provider.includes('gemini') || model.includes('gemini')) return 'gemini';
  if (provider.includes('openai')) return 'openai';
  return 'generic';
}

/** Cache key of a target: two targets with the same key get the same schema. */
export function schemaTargetKey(target: SchemaTarget): string {
  return JSON.stringify([
    schemaProviderFamily(target),
    target.compat?.omitEmptyArrayItems === true,
    [...(target.compat?.unsupportedKeywords ?? [])].sort(),
  ]);
}
