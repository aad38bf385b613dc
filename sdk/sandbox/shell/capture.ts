import type { OutputTranscript } from './transcript.js';

/** The exec wrapper announces the command's process-group id on stderr with this marker, first thing. */
export const PID_MARKER = '__PINCER_PID__';
const PID_RE = /__PINCER_PID__(\d+)\n/;
/** ...and, last thing, that the command's group still had live processes, which it killed. */
export const STRAY_MARKER = '__PINCER_STRAY__\n';
const STRAY_BYTES = Buffer.from(STRAY_MARKER, 'latin1');
/** Stop scanning for the pid marker after this much stderr (it is printed before the command runs). */
const MARKER_SCAN_LIMIT = 64 * 1024;

/** How many of the last bytes of `bytes` could be the stray marker or its start (0 when none can). */
export function strayMarkerStart(bytes: Buffer): number {
  for (let k = Math.min(bytes.length, STRAY_BYTES.length); k > 0; k -= 1) {
    if (bytes.subarray(bytes.length - k).equals(STRAY_BYTES.subarray(0, k))) return k;
  }
  return 0;
}

type Stream = 'stdout' | 'stderr';

/**
 * Collects a script's stdout/stderr up to a shared byte cap (the rest is counted and dropped,
 * so a flood cannot exhaust memory), or hands them to a transcript, after taking out the exec
 * wrapper's markers: the pid at the start of stderr, the stray-process note at its very end.
 */
export class OutputCapture {
  pid: number | undefined;
  private pidSeen: () => void = () => undefined;
  /** Settles when the pid marker arrives (never, if the command never starts). */
  readonly pidKnown = new Promise<void>((resolve) => { this.pidSeen = resolve; });
  strayProcessesKilled = false;
  private readonly chunks = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
  private kept = 0;
  private truncated = false;
  /** stderr before the pid marker was found. */
  private pending: Buffer | undefined;
  /**
   * The end of stderr when it could be the stray marker or its start, held back until the
   * next bytes tell; empty otherwise (a line-ended stderr never is: the marker starts with `_`).
   */
  private held = Buffer.alloc(0);

  constructor(private readonly cap: number, private readonly markers: boolean, private readonly transcript?: OutputTranscript) {
    if (markers) this.pending = Buffer.alloc(0);
  }

  push(stream: Stream, chunk: Buffer): void {
    if (!this.markers) return this.keep(stream, chunk);
    if (stream === 'stdout') {
      // stdout after a piece of the marker shows the piece was the command's: the wrapper prints
      // the marker in one write, once the command's group is dead (after all its stdout), and the
      // transports deliver one write whole (a docker frame) or as consecutive pieces (ssh packets,
      // split only by the channel window). A whole marker stays held: stdout after it comes from a
      // process that left the group, or the command printed the marker's text itself.
      if (this.held.length > 0 && this.held.length < STRAY_BYTES.length) this.release();
      return this.keep('stdout', chunk);
    }
    if (this.pending) {
      this.pending = Buffer.concat([this.pending, chunk]);
      const m = PID_RE.exec(this.pending.toString('latin1'));
      if (!m && this.pending.length < MARKER_SCAN_LIMIT) return;
      chunk = this.pending;
      if (m) {
        this.pid = Number(m[1]);
        this.pidSeen();
        // latin1 keeps byte offsets equal to string offsets
        chunk = Buffer.concat([chunk.subarray(0, m.index), chunk.subarray(m.index + m[0].length)]);
      }
      this.pending = undefined;
    }
    const all = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    const keepBack = strayMarkerStart(all);
    // A copy: a few bytes held must not pin a large chunk in memory.
    this.held = Buffer.from(all.subarray(all.length - keepBack));
    this.keep('stderr', all.subarray(0, all.length - keepBack));
  }

  private release(): void {
    const held = this.held;
    this.held = Buffer.alloc(0);
    this.keep('stderr', held);
  }

  private keep(stream: Stream, chunk: Buffer): void {
    if (chunk.length === 0) return;
    if (this.transcript) return this.transcript.push(stream, chunk);
    const room = this.cap - this.kept;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    if (part.length < chunk.length) this.truncated = true;
    this.chunks[stream].push(part);
    this.kept += part.length;
  }

  /** The script ended: release what was held back, without the markers. */
  finish(): void {
    if (this.pending) this.keep('stderr', this.pending);
    this.pending = undefined;
    if (this.held.equals(STRAY_BYTES)) {
      this.strayProcessesKilled = true;
      this.held = Buffer.alloc(0);
    }
    this.release();
  }

  result(): { stdout: Buffer; stderr: Buffer; truncated: boolean } {
    this.finish();
    return { stdout: Buffer.concat(this.chunks.stdout), stderr: Buffer.concat(this.chunks.stderr), truncated: this.truncated };
  }
}
