/**
 * Collects stdout and stderr under ONE shared byte budget. Past the budget the
 * bytes are still drained (a command blocked on a full pipe would never finish)
 * but dropped, and `truncated` is set.
 */
export class OutputCollector {
  readonly #stdout: Buffer[] = [];
  readonly #stderr: Buffer[] = [];
  #kept = 0;
  truncated = false;

  constructor(private readonly maxBytes: number) {}

  push(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    const room = this.maxBytes - this.#kept;
    if (room <= 0) {
      this.truncated ||= chunk.length > 0;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (kept.length < chunk.length) this.truncated = true;
    (stream === 'stdout' ? this.#stdout : this.#stderr).push(kept);
    this.#kept += kept.length;
  }

  text(stream: 'stdout' | 'stderr'): string {
    return Buffer.concat(stream === 'stdout' ? this.#stdout : this.#stderr).toString('utf8');
  }
}
