import type { DiagnosticsEvent, DiagnosticsEventMap, DiagnosticsEventType } from './events.js';

/** A listener for one event type. */
export type DiagnosticsListener<T extends DiagnosticsEventType> = (event: DiagnosticsEventMap[T]) => void;

/** What the host subscribes to; the call path only emits. */
export interface DiagnosticsEmitter {
  /** Subscribe to one type, or `'*'` for all; returns an unsubscribe function. */
  on<T extends DiagnosticsEventType>(type: T, listener: DiagnosticsListener<T>): () => void;
  on(type: '*', listener: (event: DiagnosticsEvent) => void): () => void;
  emit(event: DiagnosticsEvent): void;
  /** True when anyone listens; lets the hot path skip building events nobody reads. */
  hasListeners(): boolean;
  /** True when a listener of this type (or of `'*'`) would receive it; absent on other emitters: assume yes. */
  listensTo?(type: DiagnosticsEventType): boolean;
}

/**
 * Create an emitter. A listener that throws is reported through `onListenerError` and
 * never reaches the emitting call: diagnostics must not change a call's outcome.
 */
export function createDiagnosticsEmitter(onListenerError?: (error: unknown, event: DiagnosticsEvent) => void): DiagnosticsEmitter {
  const listeners = new Map<string, Set<(event: DiagnosticsEvent) => void>>();
  let count = 0;
  const on = (type: string, listener: (event: DiagnosticsEvent) => void) => {
    let set = listeners.get(type);
    if (!set) listeners.set(type, (set = new Set()));
    if (!set.has(listener)) count += 1;
    set.add(listener);
    return () => {
      if (set.delete(listener)) count -= 1;
    };
  };
  const deliver = (set: Set<(event: DiagnosticsEvent) => void> | undefined, event: DiagnosticsEvent) => {
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch (error) {
        onListenerError?.(error, event);
      }
    }
  };
  return {
    on: on as DiagnosticsEmitter['on'],
    emit(event) {
      if (count === 0) return;
      deliver(listeners.get(event.type), event);
      deliver(listeners.get('*'), event);
    },
    hasListeners: () => count > 0,
    listensTo: (type) => count > 0 && ((listeners.get(type)?.size ?? 0) > 0 || (listeners.get('*')?.size ?? 0) > 0),
  };
}
