import { isPlainObject } from '../loop/plain-object.js';

export { isPlainObject };

/**
 * Shallow-merge an override over the current params (the reference's rule): both plain
 * objects → `{...current, ...override}`; only the override is one → the override;
 * otherwise the current params stand.
 */
export function mergeParams(current: unknown, override: unknown): Record<string, unknown> {
  if (isPlainObject(override)) return isPlainObject(current) ? { ...current, ...override } : { ...override };
  return isPlainObject(current) ? current : {};
}

/**
 * A deep copy that shares nothing with the original. structuredClone refuses functions and
 * symbols; params come from JSON, so a JSON round-trip is an honest fallback for the rest.
 */
export function detachedCopy<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    return JSON.parse(JSON.stringify(value ?? null)) as T;
  }
}

/** Freeze a value and everything inside it, so an approved snapshot cannot be edited in place. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const nested of Object.values(value as Record<string, unknown>)) deepFreeze(nested);
  }
  return value;
}
