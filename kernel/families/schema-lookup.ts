/**
 * `config.schema.lookup`: one node of Pincer's config JSON Schema, found by a config path
 * (`tools.sandbox.tools.allow`, `agents.list[].sandbox`, `plugins.0.timeouts`), with its
 * direct children summarized rather than expanded, so an answer stays small.
 */
import { splitConfigPath } from './config-view.js';
import { FamilyToolError } from './results.js';

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The branches a node may take (anyOf/oneOf/allOf), the node itself first. */
function branches(node: SchemaNode): SchemaNode[] {
  const nested = ['anyOf', 'oneOf', 'allOf'].flatMap((key) => (Array.isArray(node[key]) ? (node[key] as unknown[]).filter(isNode) : []));
  return [node, ...nested.flatMap(branches)];
}

function child(node: SchemaNode, segment: string): SchemaNode | undefined {
  for (const branch of branches(node)) {
    const properties = branch.properties;
    if (isNode(properties) && Object.hasOwn(properties, segment) && isNode(properties[segment])) return properties[segment] as SchemaNode;
    if ((segment === '*' || /^\d+$/.test(segment)) && isNode(branch.items)) return branch.items as SchemaNode;
    if (isNode(branch.additionalProperties)) return branch.additionalProperties as SchemaNode;
  }
  return undefined;
}

/** A child as a one-line summary: its type, description, enum and default; never its own children. */
function summarize(node: SchemaNode): SchemaNode {
  const out: SchemaNode = {};
  for (const key of ['type', 'description', 'enum', 'const', 'default', 'minimum', 'maximum', 'pattern']) if (node[key] !== undefined) out[key] = node[key];
  const kinds = branches(node).slice(1).map((branch) => branch.type).filter((type) => type !== undefined);
  if (out.type === undefined && kinds.length) out.type = [...new Set(kinds.flat())];
  const keys = branches(node).flatMap((branch) => (isNode(branch.properties) ? Object.keys(branch.properties) : []));
  if (keys.length) out.keys = [...new Set(keys)];
  if (branches(node).some((branch) => isNode(branch.items))) out.items = true;
  return out;
}

export function lookupConfigSchema(root: SchemaNode, path: string): { path: string; schema: SchemaNode; children?: SchemaNode } {
  const notFound = () => new FamilyToolError('SCHEMA_PATH_NOT_FOUND', `config schema path not found: ${JSON.stringify(path.slice(0, 200))}`, 'Use "." for the top level, then follow the listed keys (e.g. "tools.sandbox").');
  const trimmed = path.trim();
  let node: SchemaNode = root;
  if (trimmed !== '.') {
    const segments = splitConfigPath(trimmed);
    if (!segments) throw notFound();
    for (const segment of segments) node = child(node, segment) ?? (() => { throw notFound(); })();
  }
  const children: SchemaNode = {};
  for (const branch of branches(node)) {
    if (!isNode(branch.properties)) continue;
    for (const [key, value] of Object.entries(branch.properties)) if (isNode(value) && !(key in children)) children[key] = summarize(value);
  }
  const items = branches(node).map((branch) => branch.items).find(isNode);
  const additional = branches(node).map((branch) => branch.additionalProperties).find(isNode);
  const schema: SchemaNode = { ...summarize(node), ...(items ? { items: summarize(items) } : {}), ...(additional ? { additionalProperties: summarize(additional) } : {}) };
  const required = branches(node).flatMap((branch) => (Array.isArray(branch.required) ? branch.required : []));
  if (required.length) schema.required = [...new Set(required)];
  return { path: trimmed, schema, ...(Object.keys(children).length ? { children } : {}) };
}
