/**
 * The one merge rule for layered sandbox settings (plugin settings → `agents.defaults.sandbox`
 * → `agents.list[].sandbox`), shared by the kernel, the CLI and the sandbox backends so all
 * three see the same effective settings. Pure: no I/O.
 *
 * - a key the later layer leaves unset keeps the earlier layer's value;
 * - objects (`docker`, `ssh`, `prune`, `env`, `ulimits`, ...) merge key by key, recursively;
 * - `binds` concatenate, earlier layers first, each bind once (a later layer adds mounts, it
 *   never silently drops the ones an earlier layer required);
 * - every other array (`tmpfs`, `capDrop`, `dns`, `extraHosts`) is one value: a later layer
 *   that sets it replaces it whole, so an agent can narrow a list as well as widen it.
 */

/** Array keys whose layers add up instead of replacing each other. */
const CONCATENATED_ARRAYS: ReadonlySet<string> = new Set(['binds']);

type Layer = Readonly<Record<string, unknown>> | undefined;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}

function mergeValue(key: string, earlier: unknown, later: unknown): unknown {
  if (later === undefined) return earlier;
  if (isPlainObject(earlier) && isPlainObject(later)) return mergeTwo(earlier, later);
  if (CONCATENATED_ARRAYS.has(key) && Array.isArray(earlier) && Array.isArray(later)) return [...new Set([...earlier, ...later])];
  return later;
}

function mergeTwo(earlier: Readonly<Record<string, unknown>>, later: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...earlier };
  for (const [key, value] of Object.entries(later)) {
    const merged = mergeValue(key, earlier[key], value);
    if (merged !== undefined) out[key] = merged;
  }
  return out;
}

/** Merges sandbox settings layers, earliest first, by the rule above. Inputs are not modified. */
export function mergeSandboxLayers<T extends object>(...layers: readonly (T | undefined)[]): T {
  return (layers as Layer[]).reduce<Record<string, unknown>>((acc, layer) => (layer ? mergeTwo(acc, layer) : acc), {}) as T;
}
