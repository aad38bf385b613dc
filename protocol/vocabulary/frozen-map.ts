/**
 * A Map that refuses writes after construction. `Object.freeze` does not stop `Map#set`,
 * and the core vocabulary must stay closed at runtime whatever a caller casts it to.
 */
export class FrozenMap<K, V> extends Map<K, V> {
  constructor(entries: Iterable<readonly [K, V]>) {
    // Map's constructor would call our throwing `set`; fill through the base class instead.
    super();
    for (const [key, value] of entries) super.set(key, value);
    Object.freeze(this);
  }

  override set(key: K, _value: V): this {
    throw new TypeError(`the core vocabulary is closed: cannot add ${String(key)}`);
  }

  override delete(key: K): boolean {
    throw new TypeError(`the core vocabulary is closed: cannot remove ${String(key)}`);
  }

  override clear(): void {
    throw new TypeError('the core vocabulary is closed: cannot clear it');
  }
}
