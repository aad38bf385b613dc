import type { Readable } from 'node:stream';
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from 'vscode-jsonrpc';
import { ProtocolErrorCodes } from '../v1/errors.js';
import { InvalidMessageError, MessageTooLargeError } from './errors.js';
import { NdjsonDecoder, type DecodedFrame } from './ndjson-decoder.js';

/** Finds the id of an oversized *response* in its first bytes, so its caller can be answered. */
function salvageResponseId(head: Buffer): number | string | undefined {
  const text = head.toString('utf8');
  if (/"method"\s*:/.test(text)) return undefined;
  const m = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*,\s*"(?:result|error)"/.exec(text);
  if (!m || m[1] === undefined) return undefined;
  return m[1].startsWith('"') ? (JSON.parse(m[1]) as string) : Number(m[1]);
}

/**
 * Why vscode-jsonrpc cannot take this message, or undefined. Its reader callback reads
 * `params.id` of every `$/cancelRequest` outside any try: a missing or null id throws there,
 * in the receiver's socket handler, which would be an uncaught exception of the whole process
 * (the kernel, for a plugin's cancel).
 */
function undispatchable(value: Record<string, unknown>): string | undefined {
  if (value.method !== '$/cancelRequest') return undefined;
  const id = (value.params as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? undefined : 'a $/cancelRequest without a string or number id';
}

/** The first bytes of a decoded message, for an error that shows it. */
function headOf(value: unknown): Buffer {
  try {
    return Buffer.from(JSON.stringify(value).slice(0, 256));
  } catch {
    return Buffer.from('(unprintable)');
  }
}

/**
 * vscode-jsonrpc reader over ndjson. Framing errors are reported through `onError`; an oversized
 * response is turned into an error response for its id (the call settles with MessageTooLarge); a
 * message the library cannot dispatch is dropped with an InvalidMessageError.
 */
export class NdjsonMessageReader extends AbstractMessageReader {
  private callback: DataCallback | undefined;

  constructor(
    private readonly readable: Readable,
    private readonly options: { peer: string; maxMessageBytes: number },
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    const decoder = new NdjsonDecoder(this.options.peer, this.options.maxMessageBytes, (f) => this.onFrame(f));
    const onData = (chunk: Buffer | string): void => decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    const onEnd = (): void => this.fireClose();
    const onError = (error: Error): void => this.fireError(error);
    this.readable.on('data', onData);
    this.readable.on('end', onEnd);
    this.readable.on('close', onEnd);
    this.readable.on('error', onError);
    return {
      dispose: () => {
        this.readable.off('data', onData);
        this.readable.off('end', onEnd);
        this.readable.off('close', onEnd);
        this.readable.off('error', onError);
        this.callback = undefined;
      },
    };
  }

  private onFrame(frame: DecodedFrame): void {
    if (frame.kind === 'message') {
      const why = undispatchable(frame.value);
      if (why) return this.fireError(new InvalidMessageError(this.options.peer, why, headOf(frame.value)));
      try {
        this.callback?.(frame.value as unknown as Message);
      } catch (cause) {
        // Whatever else the library chokes on: the message is lost, never the process.
        this.fireError(new InvalidMessageError(this.options.peer, `the RPC library refused it: ${(cause as Error)?.message ?? cause}`, headOf(frame.value), { cause }));
      }
      return;
    }
    if (frame.kind === 'garbage') {
      this.fireError(frame.error);
      return;
    }
    const error = new MessageTooLargeError(this.options.peer, frame.size, this.options.maxMessageBytes, 'incoming');
    const id = salvageResponseId(frame.head);
    if (id !== undefined) {
      const data = { detail: { size: frame.size, limit: this.options.maxMessageBytes } };
      this.callback?.({ jsonrpc: '2.0', id, error: { code: ProtocolErrorCodes.MessageTooLarge, message: error.message, data } } as Message);
    }
    this.fireError(error);
  }
}
