import type { Readable } from 'node:stream';
import { AbstractMessageReader, type DataCallback, type Disposable, type Message } from 'vscode-jsonrpc';
import { ProtocolErrorCodes } from '../v1/errors.js';
import { MessageTooLargeError } from './errors.js';
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
 * vscode-jsonrpc reader over ndjson. Framing errors are reported through `onError`; an oversized
 * response is turned into an error response for its id (the call settles with MessageTooLarge).
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
      this.callback?.(frame.value as unknown as Message);
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
