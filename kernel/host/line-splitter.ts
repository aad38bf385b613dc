/**
 * Splits a plugin's output stream into lines without trusting it: a line longer than the cap is
 * cut there (its head is emitted at once) and the rest is skipped up to the next newline, so a
 * plugin that writes hundreds of megabytes without a newline costs the kernel only the cap.
 */
const NL = 0x0a;
const CR = 0x0d;

export type LineHandler = (line: string, truncated: boolean) => void;

export class LineSplitter {
  private parts: Buffer[] = [];
  private length = 0;
  private skipping = false;

  constructor(
    private readonly maxBytes: number,
    private readonly onLine: LineHandler,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const nl = chunk.indexOf(NL, start);
      this.append(chunk.subarray(start, nl === -1 ? chunk.length : nl));
      if (nl === -1) return;
      if (this.skipping) this.skipping = false;
      else this.emit(false);
      start = nl + 1;
    }
  }

  /** The stream ended: a last line without a newline still counts. */
  end(): void {
    if (!this.skipping && this.length > 0) this.emit(false);
    this.skipping = false;
  }

  private append(part: Buffer): void {
    if (this.skipping || part.length === 0) return;
    const room = this.maxBytes - this.length;
    if (part.length <= room) {
      this.parts.push(Buffer.from(part)); // copy: the stream may reuse its chunk
      this.length += part.length;
      return;
    }
    this.parts.push(Buffer.from(part.subarray(0, room)));
    this.length += room;
    this.emit(true);
    this.skipping = true;
  }

  private emit(truncated: boolean): void {
    let bytes = this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts, this.length);
    this.parts = [];
    this.length = 0;
    if (!truncated && bytes.length > 0 && bytes[bytes.length - 1] === CR) bytes = bytes.subarray(0, bytes.length - 1);
    if (bytes.length > 0 || truncated) this.onLine(bytes.toString('utf8'), truncated);
  }
}
