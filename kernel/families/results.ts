/**
 * Results of the kernel's own tools, in the shape every tool family uses: text for the model,
 * `details` for the host, and on a refusal `details.error = { code, message, hint? }`.
 */
import type { ToolContent, ToolResult } from '../gate/index.js';

/** A typed refusal or failure of a family tool (caught and turned into an error result). */
export class FamilyToolError extends Error {
  override readonly name = 'FamilyToolError';
  constructor(
    readonly code: string,
    message: string,
    readonly hint?: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function okResult(text: string, details: Record<string, unknown>, extra: ToolContent[] = []): ToolResult {
  return { content: [{ type: 'text', text }, ...extra], details };
}

export function errorResult(error: FamilyToolError): ToolResult {
  const { code, message, hint } = error;
  const text = hint === undefined ? `Error [${code}]: ${message}` : `Error [${code}]: ${message}\nHint: ${hint}`;
  return { content: [{ type: 'text', text }], details: { ...error.details, error: { code, message, ...(hint ? { hint } : {}) } }, isError: true };
}

/** Runs a family tool's body; its typed refusals become error results, anything else propagates. */
export async function asToolResult(run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof FamilyToolError) return errorResult(error);
    throw error;
  }
}

/** A string param, or undefined; a present non-string is refused naming the param. */
export function optionalString(params: Record<string, unknown>, key: string): string | undefined {
  const value = params[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new FamilyToolError('INVALID_PARAMS', `"${key}" must be a string, not ${Array.isArray(value) ? 'an array' : typeof value}`);
  return value;
}

export function requiredString(params: Record<string, unknown>, key: string, why: string): string {
  const value = optionalString(params, key)?.trim();
  if (!value) throw new FamilyToolError('INVALID_PARAMS', `"${key}" is required ${why}`);
  return value;
}
