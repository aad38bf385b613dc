/**
 * Deterministic JSON-like text for hashing: object keys sorted, so `{a,b}` and `{b,a}`
 * hash the same. Total over any input (cycles, bigint, non-finite numbers) because a
 * hash helper that throws would turn a model's odd params into a gate failure.
 */
export function stableStringify(value: unknown): string {
  return write(value, new Set());
}

function write(value: unknown, ancestors: Set<object>): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : JSON.stringify(String(value));
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(value.toString());
    case 'function':
    case 'symbol':
      return JSON.stringify(`[${typeof value}]`);
  }
  const object = value as object;
  if (ancestors.has(object)) return '"[Circular]"';
  ancestors.add(object);
  try {
    return writeObject(object, ancestors);
  } finally {
    ancestors.delete(object);
  }
}

function writeObject(object: object, ancestors: Set<object>): string {
  if (object instanceof Error) {
    return write({ name: object.name, message: object.message }, ancestors);
  }
  if (object instanceof Uint8Array) {
    return write({ type: 'Uint8Array', base64: Buffer.from(object).toString('base64') }, ancestors);
  }
  if (Array.isArray(object)) {
    return `[${object.map((entry) => write(entry, ancestors)).join(',')}]`;
  }
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return write(toJSON.call(object), ancestors);
  const record = object as Record<string, unknown>;
  const fields: string[] = [];
  for (const key of Object.keys(record).sort()) {
    // Match JSON: a key whose value is undefined is the same as an absent key.
    if (record[key] === undefined) continue;
    fields.push(`${JSON.stringify(key)}:${write(record[key], ancestors)}`);
  }
  return `{${fields.join(',')}}`;
}
