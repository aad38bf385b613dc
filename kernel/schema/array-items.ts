import { isPlainObject } from '../shared/plain-object.js';
import type { JSONSchema } from '../gate/types.js';
import { transformSchemaTree, typeList } from './walk.js';

/**
 * Give every array schema an `items` (some providers reject arrays without one); with
 * `omitEmptyItems` (a model compat flag) strip empty `items` instead.
 */
export function ensureArrayItems(schema: JSONSchema, omitEmptyItems = false): JSONSchema {
  return transformSchemaTree(schema, (node) => {
    if (!typeList(node).includes('array')) return node;
    const empty = isPlainObject(node.items) && Object.keys(node.items).length === 0;
    if (omitEmptyItems) {
      if (!empty) return node;
      const { items: _dropped, ...rest } = node;
      return rest;
    }
    return node.items === undefined ? { ...node, items: {} } : node;
  }) as JSONSchema;
}
