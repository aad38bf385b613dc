import { PassThrough, type Readable, type Writable } from 'node:stream';
import type { MessageReader, MessageWriter } from 'vscode-jsonrpc';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../v1/version.js';
import { NdjsonMessageReader } from './reader.js';
import { NdjsonMessageWriter } from './writer.js';

/**
 * One end of a message channel: what both the kernel and the SDK build a connection on.
 * Process-specific options (fds, env) stay in whoever creates the streams.
 * @since 1
 */
export interface MessageTransport {
  readonly reader: MessageReader;
  readonly writer: MessageWriter;
  /** Ends the outgoing stream; the peer sees its reader close. */
  close(): void;
  /**
   * Resolves once at most `limit` bytes wait to go out (see NdjsonMessageWriter.backlogBelow):
   * a server awaits it before it serves a peer's next request.
   */
  backlogBelow?(limit: number, signal?: AbortSignal): Promise<void>;
}

/** Builds an ndjson transport over a pair of byte streams. */
export function createStreamTransport(
  input: Readable,
  output: Writable,
  options: { peer: string; maxMessageBytes?: number },
): MessageTransport {
  const opts = { peer: options.peer, maxMessageBytes: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES };
  const writer = new NdjsonMessageWriter(output, opts);
  // Through the writer: what it accepted in this tick goes out before the end.
  return { reader: new NdjsonMessageReader(input, opts), writer, close: () => writer.end(), backlogBelow: (limit, signal) => writer.backlogBelow(limit, signal) };
}

/**
 * Two transports joined in memory, for unit tests: `[kernelSide, pluginSide]`.
 * Bytes still go through the ndjson framing and the size cap, so tests exercise the real codec.
 */
export function createLinkedPair(options: { maxMessageBytes?: number } = {}): [MessageTransport, MessageTransport] {
  const toPlugin = new PassThrough();
  const toKernel = new PassThrough();
  const closeBoth = (): void => {
    toPlugin.end();
    toKernel.end();
  };
  const a = createStreamTransport(toKernel, toPlugin, { peer: 'plugin', ...options });
  const b = createStreamTransport(toPlugin, toKernel, { peer: 'kernel', ...options });
  return [
    { ...a, close: closeBoth },
    { ...b, close: closeBoth },
  ];
}
