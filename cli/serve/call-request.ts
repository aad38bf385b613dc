/**
 * The `tools/call` request as `pincer serve` accepts it. Registered with the SDK's own schema, a
 * call without a name (or with arguments that are not an object) is answered -32603 (internal
 * error) carrying the validator's JSON; a malformed request is the client's fault, so this schema
 * lets any params through its shape and then throws -32602 (invalid params) naming what is wrong.
 */
import { ErrorCode, type CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

/** Accepts the method, checks the params by hand (a refinement's throw reaches the SDK as is). */
export const CallToolRequestChecked = z
  .object({ method: z.literal('tools/call'), params: z.unknown() })
  .superRefine(({ params }) => {
    const problem = describeCallParamsProblem(params);
    // The SDK answers with a thrown error's numeric `code` and `message`.
    if (problem) throw Object.assign(new Error(problem), { code: ErrorCode.InvalidParams });
  });

export type CheckedCallParams = CallToolRequest['params'];

/** What is wrong with a tools/call's params, or undefined when they have the right shape. */
export function describeCallParamsProblem(params: unknown): string | undefined {
  if (!isRecord(params)) return 'tools/call needs params: an object with the tool\'s "name" and its "arguments"';
  if (typeof params.name !== 'string' || params.name === '') {
    return `tools/call needs params.name, the tool's name as a non-empty string; got ${describe(params.name)}`;
  }
  if (params.arguments !== undefined && !isRecord(params.arguments)) {
    return `params.arguments of tools/call must be an object of named arguments; got ${describe(params.arguments)}`;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (value === '') return 'an empty string';
  return `a ${typeof value}`;
}
