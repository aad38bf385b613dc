/**
 * A schema built on first use. Every process that loads the protocol (each plugin, the kernel,
 * the CLI) used to build all of its ~400 zod schemas at module load, about a third of a plugin's
 * start here, while a plugin uses a handful of them.
 *
 * The value stands in for the schema it builds: every property read, `instanceof`, `in` and key
 * listing reaches the built schema, so parsing with it and composing it behave as before. Zod
 * keys some work by a schema's identity (JSON Schema export matches each child it visits with
 * the schema's own closures), so a built schema never keeps a stand-in: the stand-ins it was
 * composed of, at any depth, are replaced by their built schemas as it is built (see
 * `resolveTree`), and the one handed to `z.toJSONSchema` goes through `resolveLazySchemaTree`.
 */

const builders = new WeakMap<object, () => object>();

/** The built schema behind a stand-in (building it now), or the value itself. */
export function resolveLazySchema<T>(value: T): T {
  const build = typeof value === 'object' && value !== null ? builders.get(value) : undefined;
  return build === undefined ? value : (build() as T);
}

const isObject = (value: unknown): value is object => typeof value === 'object' && value !== null;
const defOf = (schema: unknown): Record<string, unknown> | undefined => (schema as { _zod?: { def?: Record<string, unknown> } } | undefined)?._zod?.def;

/**
 * Replaces the stand-ins a zod definition holds (children, shape values, options) by their
 * schemas, and hands each child schema it holds to `visit`.
 */
function resolveChildren(schema: object, visit: (child: object) => void): void {
  const def = defOf(schema);
  if (def === undefined) return;
  const resolved = (item: unknown): unknown => {
    const value = isObject(item) && builders.has(item) ? resolveLazySchema(item) : item;
    if (isObject(value) && defOf(value) !== undefined) visit(value);
    return value;
  };
  // Written only where a stand-in was: some keys are getters (a default value), not slots.
  const replaceIn = (holder: Record<string, unknown> | unknown[], key: string | number, value: unknown): void => {
    const now = resolved(value);
    if (now !== value) (holder as Record<string | number, unknown>)[key] = now;
  };
  for (const key of Object.keys(def)) {
    const value = def[key];
    if (!isObject(value)) continue;
    if (Array.isArray(value)) value.forEach((item, i) => replaceIn(value, i, item));
    else if (key === 'shape') for (const [name, item] of Object.entries(value)) replaceIn(value as Record<string, unknown>, name, item);
    else replaceIn(def, key, value);
  }
}

/** Schemas whose whole tree holds no stand-in any more. */
const resolvedTrees = new WeakSet<object>();

/** Resolves every stand-in under `root`, through the eager schemas between them. */
function resolveTree(root: object): void {
  const pending = [root];
  while (pending.length > 0) {
    const schema = pending.pop()!;
    if (resolvedTrees.has(schema)) continue;
    resolvedTrees.add(schema);
    resolveChildren(schema, (child) => pending.push(child));
  }
}

/**
 * `resolveLazySchema` through a whole tree, for a schema built eagerly (outside `lazySchema`)
 * around stand-ins: what `z.toJSONSchema` needs, since it matches children by identity.
 */
export function resolveLazySchemaTree<T>(root: T): T {
  const top = resolveLazySchema(root);
  if (isObject(top)) resolveTree(top);
  return top;
}

export function lazySchema<T extends object>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => {
    if (built === undefined) {
      built = build();
      resolveTree(built);
    }
    return built;
  };
  const standIn = new Proxy({} as T, {
    get: (_target, key) => Reflect.get(schema(), key),
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    // Reported configurable: a proxy may not claim a fixed property its own (empty) target lacks.
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(schema(), key);
      return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
    },
    defineProperty: (_target, key, descriptor) => Reflect.defineProperty(schema(), key, descriptor),
    deleteProperty: (_target, key) => Reflect.deleteProperty(schema(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
    // A stand-in cannot be frozen or sealed (its target must stay an extensible empty object for
    // the traps above to keep the proxy invariants): refused with a TypeError up front. Without
    // this trap, the freeze made the target non-extensible before failing, and every key listing
    // of the stand-in threw from then on.
    preventExtensions: () => false,
  });
  builders.set(standIn, schema);
  return standIn;
}
