/**
 * `structuredContent` for tools that declare an `outputSchema`: the plugin's own when it sent one,
 * else the result's `details` narrowed to the schema's properties. Whatever is sent must validate
 * (an MCP client rejects the whole result otherwise), so a value that does not is dropped, property
 * by property, and logged; the schemas Pincer's families declare require nothing, so `{}` is the floor.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type { JsonSchemaType, JsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';

const validators = new WeakMap<object, JsonSchemaValidator<unknown> | { problem: string }>();
const ajv = new AjvJsonSchemaValidator();

/**
 * The schema's compiled validator, or why it has none. The kernel bounded the schema's size when
 * the plugin sent it, but not its meaning: ajv throws on a schema it cannot compile (`"type": 5`,
 * a `$ref` it cannot resolve), and that must cost only the structured content, never the call.
 */
function validatorFor(schema: Record<string, unknown>): JsonSchemaValidator<unknown> | { problem: string } {
  let validate = validators.get(schema);
  if (!validate) {
    try {
      validate = ajv.getValidator(schema as JsonSchemaType);
    } catch (error) {
      validate = { problem: `the tool's outputSchema cannot be compiled: ${String((error as Error)?.message ?? error).slice(0, 300)}` };
    }
    validators.set(schema, validate);
  }
  return validate;
}

export interface StructuredOutcome {
  value?: Record<string, unknown>;
  /** Why something was dropped, for the log. */
  problem?: string;
}

export function structuredContentFor(outputSchema: Record<string, unknown> | undefined, result: { structuredContent?: Record<string, unknown>; details?: Record<string, unknown>; isError?: boolean }): StructuredOutcome {
  if (!outputSchema || result.isError) return {};
  const validate = validatorFor(outputSchema);
  if (typeof validate !== 'function') return { problem: validate.problem };
  const properties = outputSchema.properties && typeof outputSchema.properties === 'object' ? Object.keys(outputSchema.properties) : [];
  const candidate = result.structuredContent ?? Object.fromEntries(properties.filter((key) => result.details?.[key] !== undefined).map((key) => [key, result.details![key]]));
  const checked = validate(candidate);
  if (checked.valid) return { value: candidate };
  // Keep what validates on its own; the rest is the plugin's bug, not the client's problem.
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(candidate)) if (validate({ ...kept, [key]: value }).valid) kept[key] = value;
  return validate(kept).valid ? { value: kept, problem: checked.errorMessage } : { problem: checked.errorMessage };
}
