import { NotificationType, ProgressType, RequestType } from 'vscode-jsonrpc';
import type { z } from 'zod';
import type { ProtocolErrorData } from './v1/errors.js';

/**
 * Who sends a method. The receiver is always the other side; `plugin-to-plugin` methods travel
 * on a backend's direct channel (a tool plugin to a sandbox backend), never on stdio.
 */
export type MethodDirection = 'kernel-to-plugin' | 'plugin-to-kernel' | 'both' | 'plugin-to-plugin';

/** Documentation carried by every descriptor, exported into the JSON Schema. */
export interface MethodMeta {
  direction: MethodDirection;
  /** Protocol version that introduced the method. */
  since: number;
  /** One paragraph: what the method does, and who answers it. */
  doc: string;
  /** Capability the receiver must have declared before the sender may use the method. */
  capability?: string;
}

/** A request declared once, used by both sides: `connection.sendRequest(X.type, params)`. */
export interface RequestDescriptor<P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType> {
  readonly kind: 'request';
  readonly method: string;
  readonly params: P;
  readonly result: R;
  /** Params typed as the sender writes them (z.input); receivers validate with `params`. */
  readonly type: RequestType<z.input<P>, z.output<R>, ProtocolErrorData>;
  readonly meta: MethodMeta;
}

/** A notification declared once (no response). */
export interface NotificationDescriptor<P extends z.ZodType = z.ZodType> {
  readonly kind: 'notification';
  readonly method: string;
  readonly params: P;
  readonly type: NotificationType<z.input<P>>;
  readonly meta: MethodMeta;
}

/** A progress stream carried by `$/progress` under a token the request supplied. */
export interface ProgressDescriptor<V extends z.ZodType = z.ZodType> {
  readonly kind: 'progress';
  readonly name: string;
  readonly value: V;
  readonly type: ProgressType<z.output<V>>;
  readonly meta: MethodMeta;
}

export type AnyDescriptor = RequestDescriptor | NotificationDescriptor | ProgressDescriptor;

/** Declares a request method with its params and result schemas. */
export function defineRequest<P extends z.ZodType, R extends z.ZodType>(
  method: string,
  params: P,
  result: R,
  meta: MethodMeta,
): RequestDescriptor<P, R> {
  return Object.freeze({ kind: 'request', method, params, result, type: new RequestType<z.input<P>, z.output<R>, ProtocolErrorData>(method), meta });
}

/** Declares a notification method with its params schema. */
export function defineNotification<P extends z.ZodType>(method: string, params: P, meta: MethodMeta): NotificationDescriptor<P> {
  return Object.freeze({ kind: 'notification', method, params, type: new NotificationType<z.input<P>>(method), meta });
}

/** Declares the value shape of a progress stream (sent as `$/progress {token, value}`). */
export function defineProgress<V extends z.ZodType>(name: string, value: V, meta: MethodMeta): ProgressDescriptor<V> {
  return Object.freeze({ kind: 'progress', name, value, type: new ProgressType<z.output<V>>(), meta });
}
