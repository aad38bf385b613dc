/** Codes for input the policy primitives cannot read. */
export type PolicyInputErrorCode = 'INVALID_TOOL_LIST' | 'INVALID_POLICY' | 'INVALID_TOOL' | 'TOOL_META_FAILED' | 'INVALID_BIND_SPEC';

/**
 * Bad input to a policy primitive: names what was wrong and where, instead of a TypeError
 * from deep inside. `where` is the argument or field (`policy.allow`, `tools[3]`).
 */
export class PolicyInputError extends Error {
  override readonly name = 'PolicyInputError';
  constructor(
    readonly code: PolicyInputErrorCode,
    readonly where: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${where}: ${message}`, options);
  }
}

/** Throws unless `value` is an array (or undefined/null, which callers treat as absent). */
export function assertOptionalList(value: unknown, where: string): asserts value is readonly unknown[] | undefined | null {
  if (value !== undefined && value !== null && !Array.isArray(value)) {
    throw new PolicyInputError('INVALID_TOOL_LIST', where, `expected an array of tool names, got ${describeValue(value)}`);
  }
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `a value of type ${typeof value}`;
}
