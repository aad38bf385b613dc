import { isPlainObject } from './params.js';

/** Params as the gate holds them: a detached copy, or why they are not plain JSON. */
export type JsonParams = { ok: true; params: Record<string, unknown> } | { ok: false; problem: string };

// Deeper than this is not a tool call's arguments; it also bounds the walk on a cycle.
const MAX_DEPTH = 100;

/**
 * Why a value is not JSON, and where. The path is assembled on the way out of the walk, one
 * segment per level, because building `params.a.b[3]` for every member of every call cost
 * more than the copy itself.
 */
class NotJson extends Error {
  private segments: string[] = [];
  constructor(private readonly problem: string) {
    super(problem);
  }
  /** Prepend the segment of the level the failure passed through (`.key` or `[i]`). */
  at(segment: string): this {
    this.segments.push(segment);
    return this;
  }
  describe(root: string): string {
    return `${root}${this.segments.reverse().join('')} ${this.problem}`;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string' || typeof value === 'boolean') return `a ${typeof value}`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (typeof value === 'bigint') return 'a bigint';
  if (typeof value === 'number') return `the number ${String(value)}`;
  if (value === undefined) return 'undefined';
  const name = (value as object).constructor?.name;
  return name ? `a ${name} instance` : 'an object with a foreign prototype';
}

function copy(value: unknown, depth: number, ancestors: Set<object>): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value !== 'object') throw new NotJson(`is ${describe(value)}`);
  if (depth >= MAX_DEPTH) throw new NotJson(`is nested deeper than ${MAX_DEPTH} levels`);
  if (ancestors.has(value)) throw new NotJson('refers back to itself');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      if (Object.getPrototypeOf(value) !== Array.prototype) throw new NotJson('is an array subclass');
      return Array.from(value, (entry, i) => member(entry, depth, ancestors, i));
    }
    if (!isPlainObject(value)) throw new NotJson(`is ${describe(value)}`);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const entry = value[key];
      // JSON drops an undefined member: the hooks and the plugin see the same (absent) key.
      if (entry === undefined) continue;
      const copied = member(entry, depth, ancestors, key);
      // A JSON `"__proto__"` key is data; plain assignment would set the copy's prototype instead.
      if (key === '__proto__') Object.defineProperty(out, key, { value: copied, enumerable: true, writable: true, configurable: true });
      else out[key] = copied;
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}

/** Copy one member (array index or object key), naming it on a failure that passes through. */
function member(entry: unknown, depth: number, ancestors: Set<object>, at: string | number): unknown {
  try {
    return copy(entry, depth + 1, ancestors);
  } catch (error) {
    if (error instanceof NotJson) throw error.at(typeof at === 'number' ? `[${at}]` : `.${at}`);
    throw error;
  }
}

/**
 * Check that params are plain JSON and take the one copy every later step works on (9.10):
 * the hooks judge exactly what the tool will get, and neither a getter nor a caller that
 * mutates its object while an approval is pending can change it afterwards. Functions,
 * class instances (Date, Map, typed arrays, shared memory), symbols, bigints, non-finite
 * numbers and cycles are refused, naming the path, instead of being copied "as well as possible".
 */
export function toJsonParams(value: unknown): JsonParams {
  if (!isPlainObject(value)) return { ok: false, problem: `params are ${describe(value)}, not a JSON object` };
  try {
    return { ok: true, params: copy(value, 0, new Set()) as Record<string, unknown> };
  } catch (error) {
    // A getter that throws is as unreadable as a function.
    return { ok: false, problem: error instanceof NotJson ? error.describe('params') : `params could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}
