/**
 * Allowlist intersections: several independent restrictions that must EACH admit a tool.
 * Globs cannot be intersected into one list (`read*` ∩ `*_file` has no glob), so the
 * restrictions travel on the list itself as a non-enumerable property: the list stays a
 * plain `string[]` for code that only reads entries (JSON, config), and policy code that
 * knows about intersections reads every restriction.
 */

const INTERSECTION = Symbol.for('pincer.toolAllowlistIntersection');
// Lists built by the reference system carry their restrictions under its own key; read it too.
const REFERENCE_INTERSECTION = Symbol.for('openclaw.toolAllowlistIntersection');

type CarriesIntersection = readonly unknown[] & {
  [INTERSECTION]?: readonly (readonly unknown[])[];
  [REFERENCE_INTERSECTION]?: readonly (readonly unknown[])[];
};

/**
 * An allowlist that admits a tool only when every restriction admits it.
 * The visible entries are the union of the restrictions (deduplicated).
 *
 * @example intersectToolAllowlists([['read', 'write'], ['group:fs']]) // admits read and write only
 */
export function intersectToolAllowlists(restrictions: readonly (readonly string[])[]): string[] {
  const union = [...new Set(restrictions.flat())];
  return attachToolAllowlistIntersection(union, restrictions);
}

/** Attach restrictions to an existing list (in place) and return it. */
export function attachToolAllowlistIntersection<T extends unknown[]>(list: T, restrictions: readonly (readonly unknown[])[]): T {
  Object.defineProperty(list, INTERSECTION, {
    configurable: true,
    enumerable: false,
    value: restrictions.map((restriction) => [...restriction]),
  });
  return list;
}

/** The independent restrictions a list carries, or `undefined` for a plain list. */
export function readToolAllowlistIntersection(list: readonly unknown[]): readonly (readonly unknown[])[] | undefined {
  const carrier = list as CarriesIntersection;
  return carrier[INTERSECTION] ?? carrier[REFERENCE_INTERSECTION];
}
