import { isPlainObject } from '../shared/plain-object.js';
import type { JSONSchema } from '../gate/types.js';
import { SchemaBudget, chargeCopy } from './bounds.js';
import { mapSubschemas } from './walk.js';

/** Keywords of the referencing node that survive inlining (they annotate this use of the target). */
const CARRIED = ['title', 'description', 'default', 'nullable'];
const DEFINITION_HOLDERS = ['$defs', 'definitions', 'components'];

function resolvePointer(root: unknown, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

/**
 * Replace local `$ref`s (`#/$defs/x`, `#/definitions/x`, any local JSON pointer) by copies
 * of their targets. A reference that leads back into itself, and any object cycle in the
 * input, becomes `{}` (accept anything) instead of looping. Definition holders are dropped
 * unless a reference could not be resolved (remote or dangling refs are left as they are).
 * Every node built is charged to `budget`: past its limits this throws SchemaLimitError
 * instead of expanding a schema of chained references exponentially.
 */
export function inlineLocalRefs(schema: JSONSchema, budget: SchemaBudget = new SchemaBudget()): JSONSchema {
  let unresolved = 0;
  // The nodes and refs on the path from the root: added on the way down, removed on the way up.
  const active = new Set<unknown>();
  const refs = new Set<string>();
  const within = <T>(node: unknown, ref: string | undefined, work: () => T): T => {
    active.add(node);
    if (ref !== undefined) refs.add(ref);
    try {
      return work();
    } finally {
      active.delete(node);
      if (ref !== undefined) refs.delete(ref);
    }
  };
  const visit = (node: unknown): unknown => {
    if (!isPlainObject(node)) return node;
    budget.charge(1);
    budget.depth(active.size);
    if (active.has(node)) return {};
    if (typeof node.$ref === 'string') {
      const ref = node.$ref;
      const target = resolvePointer(schema, ref);
      if (target === undefined) {
        unresolved += 1;
        return { ...node };
      }
      if (refs.has(ref) || active.has(target)) return {};
      const resolved = within(node, ref, () => visit(target));
      const carried = Object.fromEntries(CARRIED.filter((k) => k in node).map((k) => [k, node[k]]));
      return isPlainObject(resolved) ? { ...resolved, ...carried } : resolved;
    }
    return within(node, undefined, () => copyData(node, mapSubschemas(node, visit), budget));
  };
  const out = visit(schema) as JSONSchema;
  if (unresolved === 0) for (const key of DEFINITION_HOLDERS) delete out[key];
  return out;
}

// Non-schema values (enum lists, defaults, examples) still point into the input; copy them
// so the output shares nothing with it. Subschema positions were already rebuilt.
function copyData(original: JSONSchema, mapped: JSONSchema, budget: SchemaBudget): JSONSchema {
  for (const [key, value] of Object.entries(mapped)) {
    if (value === original[key] && value !== null && typeof value === 'object') {
      chargeCopy(value, budget);
      mapped[key] = safeClone(value);
    }
  }
  return mapped;
}

function safeClone(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}
