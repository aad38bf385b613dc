/**
 * Deterministic JSON-like text for hashing: object keys sorted, so `{a,b}` and `{b,a}`
 * hash the same. Total over any input (cycles, bigint, non-finite numbers) because a
 * hash helper that throws would turn a model's odd params into a gate failure.
 */
export function stableStringify(value: unknown): string {
  return write(value, undefined);
}

// What JSON.stringify escapes in a string: a quote, a backslash, control characters, and lone
// surrogates (any surrogate is sent to it here; paired ones come back unescaped, as they should).
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** JSON.stringify of a string; most keys and values need no escaping, and quoting them is cheaper. */
function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

// Built by concatenation, not arrays joined: this runs up to four times per gated call.
function write(value: unknown, ancestors: Ancestors | undefined): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      // A finite number's JSON text is its String() text (-0 included: both give "0").
      return Number.isFinite(value) ? String(value) : JSON.stringify(String(value));
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      return JSON.stringify(value.toString());
    case 'function':
    case 'symbol':
      return JSON.stringify(`[${typeof value}]`);
  }
  const object = value as object;
  ancestors ??= new Ancestors();
  if (ancestors.has(object)) return '"[Circular]"';
  ancestors.push(object);
  try {
    return writeObject(object, ancestors);
  } finally {
    ancestors.pop();
  }
}

/**
 * The objects on the path from the root, for cycle detection. A short path is an array (a Set
 * per call was a fifth of hashing a small params object); a deep one also gets a Set, so a
 * value nested thousands of levels deep is not scanned level by level at every level.
 */
class Ancestors {
  private readonly stack: object[] = [];
  private set: Set<object> | undefined;
  has(object: object): boolean {
    return this.set ? this.set.has(object) : this.stack.includes(object);
  }
  push(object: object): void {
    this.stack.push(object);
    if (this.set) this.set.add(object);
    else if (this.stack.length > 32) this.set = new Set(this.stack);
  }
  pop(): void {
    const object = this.stack.pop();
    if (object !== undefined) this.set?.delete(object);
  }
}

function writeObject(object: object, ancestors: Ancestors): string {
  if (object instanceof Error) {
    return write({ name: object.name, message: object.message }, ancestors);
  }
  if (object instanceof Uint8Array) {
    return write({ type: 'Uint8Array', base64: Buffer.from(object).toString('base64') }, ancestors);
  }
  if (Array.isArray(object)) {
    let text = '[';
    // A hole renders as nothing (as map + join did); an explicit undefined as `undefined`.
    for (let i = 0; i < object.length; i++) text += (i > 0 ? ',' : '') + (i in object ? write(object[i], ancestors) : '');
    return `${text}]`;
  }
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return write(toJSON.call(object), ancestors);
  const record = object as Record<string, unknown>;
  let text = '{';
  for (const key of Object.keys(record).sort()) {
    // Match JSON: a key whose value is undefined is the same as an absent key.
    if (record[key] === undefined) continue;
    text += `${text.length > 1 ? ',' : ''}${quote(key)}:${write(record[key], ancestors)}`;
  }
  return `${text}}`;
}
