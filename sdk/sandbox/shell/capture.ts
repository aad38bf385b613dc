/** The wrapper announces the command's process-group id on stderr with this marker. */
export const PID_MARKER = '__PINCER_PID__';
const PID_RE = /__PINCER_PID__(\d+)\n/;
/** Stop scanning for the marker after this much stderr (it is printed right after fork). */
const MARKER_SCAN_LIMIT = 64 * 1024;

/**
 * Collects stdout/stderr up to a shared byte cap (the rest is counted and dropped, so a
 * flood cannot exhaust memory) and extracts the pid marker from stderr.
 */
export class OutputCapture {
  pid: number | undefined;
  private pidSeen: () => void = () => undefined;
  /** Settles when the pid marker arrives (never, if the command never starts). */
  readonly pidKnown = new Promise<void>((resolve) => { this.pidSeen = resolve; });
  private readonly chunks = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  private kept = 0;
  private truncated = false;
  private pending: Buffer | undefined;

  constructor(private readonly cap: number, expectMarker: boolean) {
    if (expectMarker) this.pending = Buffer.alloc(0);
  }

  push(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    if (stream === 'stderr' && this.pending) {
      this.pending = Buffer.concat([this.pending, chunk]);
      const text = this.pending.toString('latin1');
      const m = PID_RE.exec(text);
      if (!m && this.pending.length < MARKER_SCAN_LIMIT) return;
      let rest = this.pending;
      if (m) {
        this.pid = Number(m[1]);
        this.pidSeen();
        // latin1 keeps byte offsets equal to string offsets
        rest = Buffer.concat([rest.subarray(0, m.index), rest.subarray(m.index + m[0].length)]);
      }
      this.pending = undefined;
      chunk = rest;
    }
    this.keep(stream, chunk);
  }

  private keep(stream: 'stdout' | 'stderr', chunk: Buffer): void {
    const room = this.cap - this.kept;
    if (room <= 0) {
      if (chunk.length > 0) this.truncated = true;
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.truncated = true;
    this.chunks[stream].push(part);
    this.kept += part.length;
  }

  result(): { stdout: Buffer; stderr: Buffer; truncated: boolean } {
    if (this.pending) {
      const p = this.pending;
      this.pending = undefined;
      this.keep('stderr', p);
    }
    return { stdout: Buffer.concat(this.chunks.stdout), stderr: Buffer.concat(this.chunks.stderr), truncated: this.truncated };
  }
}
