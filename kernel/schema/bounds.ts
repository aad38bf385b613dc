/**
 * Limits on a tool schema, checked when a plugin hands one over. A schema comes from a plugin
 * and is walked on the kernel's event loop, so its size, its depth and what `$ref` inlining makes
 * of it are bounded: a 2 KB schema of chained `$defs` must not expand into gigabytes.
 */

export interface SchemaLimits {
  /** Approximate serialized size of the schema as received. */
  maxBytes: number;
  /** Nesting of objects and arrays, as received and after `$ref` inlining. */
  maxDepth: number;
  /** JSON values, as received and after `$ref` inlining. */
  maxNodes: number;
}

export const DEFAULT_SCHEMA_LIMITS: SchemaLimits = Object.freeze({ maxBytes: 256 * 1024, maxDepth: 64, maxNodes: 20_000 });

/** A schema (or another JSON value measured the same way) over one of the limits; the message says which. */
export class SchemaLimitError extends Error {
  override readonly name = 'SchemaLimitError';
  readonly code = 'SCHEMA_TOO_COMPLEX' as const;
}

/** Counts the work of a walk and stops it, with a typed error, past the limits. */
export class SchemaBudget {
  private nodes = 0;
  constructor(readonly limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS) {}

  get used(): number {
    return this.nodes;
  }

  charge(count: number, what = 'after $ref inlining'): void {
    this.nodes += count;
    if (this.nodes > this.limits.maxNodes) throw new SchemaLimitError(`more than ${this.limits.maxNodes} nodes ${what}`);
  }

  depth(depth: number, what = 'after $ref inlining'): void {
    if (depth > this.limits.maxDepth) throw new SchemaLimitError(`nested deeper than ${this.limits.maxDepth} levels ${what}`);
  }
}

/**
 * Measures a JSON value without recursion (a plugin can send a value nested a million levels
 * deep): nodes, depth and approximate bytes. Throws SchemaLimitError at the first limit passed.
 * Any plugin-supplied JSON that kernel code will walk recursively can be checked with it.
 */
export function measureJson(value: unknown, budget: SchemaBudget = new SchemaBudget()): void {
  const { maxBytes } = budget.limits;
  let bytes = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  const add = (size: number): void => {
    bytes += size;
    if (bytes > maxBytes) throw new SchemaLimitError(`larger than ${maxBytes} bytes`);
  };
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    budget.depth(depth, 'as received');
    if (typeof node === 'string') add(node.length + 2);
    else if (Array.isArray(node)) {
      for (const child of node) {
        budget.charge(1, 'as received'); // before pushing, so the stack never outgrows the limit
        add(1);
        stack.push([child, depth + 1]);
      }
    } else if (node !== null && typeof node === 'object') {
      for (const key in node) {
        if (!Object.prototype.hasOwnProperty.call(node, key)) continue;
        budget.charge(1, 'as received');
        add(key.length + 4);
        stack.push([(node as Record<string, unknown>)[key], depth + 1]);
      }
    } else add(8);
  }
}

/** Nodes of a plain JSON value (for charging copies of data such as `enum` lists), within the budget. */
export function chargeCopy(value: unknown, budget: SchemaBudget): void {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    budget.charge(1);
    if (Array.isArray(node)) for (const child of node) stack.push(child);
    else if (node !== null && typeof node === 'object') for (const child of Object.values(node)) stack.push(child);
  }
}
