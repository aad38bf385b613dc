/**
 * Tools a session found through `tool_search`: callable (and listed) for the rest of its run,
 * across re-assemblies (a plugin restart, a list change). Bounded: the oldest session is forgotten
 * first, so a long-lived kernel serving many sessions does not grow without end.
 */
const MAX_SESSIONS = 1_024;

export class DiscoveredTools {
  readonly #bySession = new Map<string, Set<string>>();

  of(sessionKey: string): Set<string> {
    let found = this.#bySession.get(sessionKey);
    if (found) {
      // Most recently used last.
      this.#bySession.delete(sessionKey);
    } else {
      found = new Set();
      if (this.#bySession.size >= MAX_SESSIONS) this.#bySession.delete(this.#bySession.keys().next().value as string);
    }
    this.#bySession.set(sessionKey, found);
    return found;
  }
}
