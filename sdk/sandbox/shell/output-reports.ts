import type { ExecProgressValue } from '../../../protocol/v1/workspace.js';
import type { ExecOutputListener, ExecOutputSegment, WorkspaceExecOptions, WorkspaceExecResult, WorkspaceService } from '../../../protocol/v1/workspace-types.js';

/** At most one report per this many ms; a running command's output is gathered in between. */
export const OUTPUT_REPORT_INTERVAL_MS = 300;
/** The most output one report carries: the newest bytes; older ones of the same interval are only counted. */
export const MAX_OUTPUT_REPORT_BYTES = 4 * 1024;

interface Piece {
  stream: 'stdout' | 'stderr';
  text: string;
  bytes: number;
}

/** `text` without its first `bytes` UTF-8 bytes (or a little more, to start at a character). */
function dropFront(text: string, bytes: number): { text: string; dropped: number } {
  const encoded = Buffer.from(text, 'utf8');
  let cut = bytes;
  while (cut < encoded.length && (encoded[cut]! & 0xc0) === 0x80) cut += 1;
  return { text: encoded.subarray(cut).toString('utf8'), dropped: cut };
}

/**
 * A running command's output as progress reports that stay small however much it prints: the
 * first output starts a timer, and when it fires everything since the previous report goes in
 * one report (so one per interval at most, each only new output, in arrival order). Under a
 * flood a report keeps the newest `maxBytes` and says how many bytes before them it skipped.
 * Nothing is sent once closed: what was still gathered then is in the result that follows.
 */
export class OutputReports {
  readonly #send: (value: ExecProgressValue) => void;
  readonly #intervalMs: number;
  readonly #maxBytes: number;
  /** One piece per chunk, oldest first; whole pieces before the newest maxBytes are dropped at once. */
  #pieces: Piece[] = [];
  #bytes = 0;
  #omitted = 0;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(send: (value: ExecProgressValue) => void, options: { intervalMs?: number; maxBytes?: number } = {}) {
    this.#send = send;
    this.#intervalMs = options.intervalMs ?? OUTPUT_REPORT_INTERVAL_MS;
    this.#maxBytes = options.maxBytes ?? MAX_OUTPUT_REPORT_BYTES;
  }

  /** What `exec` is given to hear the output. */
  readonly listener: ExecOutputListener = (output) => {
    if (this.#closed) return;
    for (const segment of output) {
      if (segment.stream === 'omitted') this.#omitted += segment.bytes;
      else if (segment.text !== '') this.#add({ stream: segment.stream, text: segment.text, bytes: Buffer.byteLength(segment.text) });
    }
    if (this.#timer === undefined && (this.#pieces.length > 0 || this.#omitted > 0)) this.#timer = setTimeout(() => this.#flush(), this.#intervalMs);
  };

  #add(piece: Piece): void {
    this.#pieces.push(piece);
    this.#bytes += piece.bytes;
    // Memory stays bounded under a flood: at most maxBytes and one chunk are held.
    while (this.#bytes - this.#pieces[0]!.bytes >= this.#maxBytes) {
      const first = this.#pieces.shift()!;
      this.#bytes -= first.bytes;
      this.#omitted += first.bytes;
    }
  }

  #flush(): void {
    this.#timer = undefined;
    const pieces = this.#pieces;
    let omitted = this.#omitted;
    const excess = this.#bytes - this.#maxBytes;
    if (excess > 0 && pieces[0]) {
      const cut = dropFront(pieces[0].text, excess);
      pieces[0] = { ...pieces[0], text: cut.text, bytes: pieces[0].bytes - cut.dropped };
      omitted += cut.dropped;
    }
    this.#pieces = [];
    this.#bytes = this.#omitted = 0;
    const output: ExecOutputSegment[] = omitted > 0 ? [{ stream: 'omitted', bytes: omitted }] : [];
    for (const piece of pieces) {
      const last = output.at(-1);
      if (last !== undefined && last.stream === piece.stream) last.text += piece.text;
      else if (piece.text !== '') output.push({ stream: piece.stream, text: piece.text });
    }
    if (output.length > 0) this.#send({ output });
  }

  /** The command ended (or failed): no report after this one. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#pieces = [];
  }
}

/**
 * A backend's `sandbox/exec`: the workspace's own `exec`, with its output so far reported through
 * `progress` when the kernel asked for it (a progress token). The result is the same either way.
 */
export async function execReportingOutput(
  workspace: Pick<WorkspaceService, 'exec'>,
  params: { command: string; options?: WorkspaceExecOptions },
  ctx: { signal?: AbortSignal; progress?: (value: ExecProgressValue) => void },
): Promise<WorkspaceExecResult> {
  if (!ctx.progress) return workspace.exec(params.command, params.options, ctx.signal);
  const reports = new OutputReports(ctx.progress);
  try {
    return await workspace.exec(params.command, params.options, ctx.signal, reports.listener);
  } finally {
    reports.close();
  }
}
