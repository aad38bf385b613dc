import { FramingError } from './errors.js';

/**
 * Splits a byte stream into newline-delimited JSON messages with a byte cap.
 * Why ndjson over Content-Length: a stray byte breaks one line, not every later frame, and the
 * offending line can be shown verbatim; a plugin in any language writes it with one print.
 */
export type DecodedFrame =
  | { kind: 'message'; value: Record<string, unknown> }
  | { kind: 'garbage'; error: FramingError }
  | { kind: 'tooLarge'; size: number; head: Buffer };

const NL = 0x0a;
const HEAD_BYTES = 256;

export class NdjsonDecoder {
  private chunks: Buffer[] = [];
  private length = 0;
  /** While > 0 we are skipping the rest of an oversized line. */
  private discarded = 0;
  private head: Buffer | undefined;

  constructor(
    private readonly peer: string,
    private readonly maxBytes: number,
    private readonly emit: (frame: DecodedFrame) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NL, start);
      const end = nl === -1 ? chunk.length : nl;
      this.append(chunk.subarray(start, end));
      if (nl === -1) return;
      this.finishLine();
      start = nl + 1;
    }
  }

  private append(part: Buffer): void {
    if (part.length === 0) return;
    if (this.discarded > 0) {
      this.discarded += part.length;
      return;
    }
    if (this.length + part.length > this.maxBytes) {
      const all = Buffer.concat([...this.chunks, part]);
      this.head = all.subarray(0, HEAD_BYTES);
      this.discarded = all.length;
      this.chunks = [];
      this.length = 0;
      return;
    }
    this.chunks.push(Buffer.from(part)); // copy: the source chunk may be reused by the stream
    this.length += part.length;
  }

  private finishLine(): void {
    if (this.discarded > 0) {
      const size = this.discarded;
      const head = this.head ?? Buffer.alloc(0);
      this.discarded = 0;
      this.head = undefined;
      this.emit({ kind: 'tooLarge', size, head });
      return;
    }
    const line = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.chunks = [];
    this.length = 0;
    if (!line || line.length === 0 || (line.length === 1 && line[0] === 0x0d)) return;
    let value: unknown;
    try {
      value = JSON.parse(line.toString('utf8'));
    } catch (cause) {
      this.emit({ kind: 'garbage', error: new FramingError(this.peer, line, { cause }) });
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value) || (value as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      this.emit({ kind: 'garbage', error: new FramingError(this.peer, line) });
      return;
    }
    this.emit({ kind: 'message', value: value as Record<string, unknown> });
  }
}
