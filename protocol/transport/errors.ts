/**
 * Errors a transport raises while framing. They name the peer and show the bytes, so a broken
 * plugin is diagnosed from one log line. The receiving side decides whether they are fatal.
 */

/** Escaped preview of raw bytes: control characters visible, length capped. */
export function previewBytes(bytes: Uint8Array, max = 120): string {
  const text = Buffer.from(bytes.subarray(0, max)).toString('utf8');
  // JSON escapes C0 controls; C1 controls, bidi overrides and line separators would still reach a terminal raw.
  const escaped = JSON.stringify(text).replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return escaped + (bytes.length > max ? ` …(+${bytes.length - max} bytes)` : '');
}

/** A line on the RPC channel that is not a JSON-RPC message. @since 1 */
export class FramingError extends Error {
  override readonly name = 'FramingError';
  readonly code = 'FRAMING_ERROR' as const;
  constructor(
    readonly peer: string,
    readonly bytes: Uint8Array,
    options?: { cause?: unknown },
  ) {
    super(`${peer} wrote bytes that are not a JSON-RPC message on the RPC channel: ${previewBytes(bytes)}`, options);
  }
}

/** A framed message over the size cap (incoming or outgoing). @since 1 */
export class MessageTooLargeError extends Error {
  override readonly name = 'MessageTooLargeError';
  readonly code = 'MESSAGE_TOO_LARGE' as const;
  constructor(
    readonly peer: string,
    readonly size: number,
    readonly limit: number,
    readonly direction: 'incoming' | 'outgoing',
  ) {
    super(
      direction === 'incoming'
        ? `${peer} sent a message of ${size} bytes, over the cap of ${limit} bytes; it was dropped`
        : `MessageTooLarge: a message of ${size} bytes to ${peer} is over the cap of ${limit} bytes; it was not sent`,
    );
  }
}

/**
 * A well-framed JSON-RPC message the receiver refused to dispatch: it would break the RPC
 * library itself (a `$/cancelRequest` without a request id throws inside vscode-jsonrpc's reader,
 * which is the receiving process's socket handler). Dropped; the stream goes on. @since 1
 */
export class InvalidMessageError extends Error {
  override readonly name = 'InvalidMessageError';
  readonly code = 'INVALID_MESSAGE' as const;
  constructor(
    readonly peer: string,
    readonly why: string,
    readonly bytes: Uint8Array,
    options?: { cause?: unknown },
  ) {
    super(`${peer} sent a JSON-RPC message that was dropped (${why}): ${previewBytes(bytes)}`, options);
  }
}
