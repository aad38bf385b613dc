/**
 * Splits a byte stream into lines for the stdio transport. A line longer than the cap is dropped
 * whole (reported once), and the stream picks up again at the next newline, so one runaway
 * message costs neither memory nor the connection.
 */
export class LineReader {
  #parts: Buffer[] = [];
  #size = 0;
  #dropping = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onNoise?: (message: string) => void,
  ) {}

  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(10, start); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.#take(chunk.subarray(start, newline));
      if (!this.#dropping) {
        const line = Buffer.concat(this.#parts).toString('utf8').replace(/\r$/, '');
        if (line.trim() !== '') lines.push(line);
      }
      this.#parts = [];
      this.#size = 0;
      this.#dropping = false;
      start = newline + 1;
    }
    this.#take(chunk.subarray(start));
    return lines;
  }

  #take(bytes: Buffer): void {
    if (this.#dropping || bytes.length === 0) return;
    this.#size += bytes.length;
    if (this.#size > this.maxLineBytes) {
      this.#dropping = true;
      this.#parts = [];
      this.onNoise?.(`a message over ${this.maxLineBytes} bytes was dropped`);
      return;
    }
    this.#parts.push(bytes);
  }
}
