import { StringDecoder } from 'node:string_decoder';
import type { ExecOutputListener, ExecOutputSegment } from '../../../protocol/v1/workspace-types.js';

type Stream = 'stdout' | 'stderr';
interface Piece {
  stream: Stream;
  text: string;
  bytes: number;
}

/** What a command printed so far: both streams in arrival order, and each on its own. */
export interface TranscriptSnapshot {
  output: ExecOutputSegment[];
  stdout: string;
  stderr: string;
  truncated: boolean;
  /** Every byte the command wrote, kept or dropped. */
  bytes: number;
}

/** Share of the cap kept from the start; the rest keeps the end, where a build log's error is. */
const HEAD_SHARE = 0.25;

/** The longest prefix of `text` whose UTF-8 form fits in `maxBytes`, never splitting a character. */
function prefixWithin(text: string, maxBytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= maxBytes) return text;
  let cut = maxBytes;
  while (cut > 0 && (encoded[cut]! & 0xc0) === 0x80) cut -= 1; // back off to the start of a character
  return encoded.subarray(0, cut).toString('utf8');
}

/**
 * A command's output under one byte cap shared by stdout and stderr: the first quarter and
 * the last three quarters are kept, the middle is counted and dropped, so memory stays
 * bounded under a flood. Each stream is decoded on its own as it arrives, so a character
 * split across chunks (or around the other stream's output, or at the cap) is never mangled.
 */
export class OutputTranscript {
  readonly #headCap: number;
  readonly #tailCap: number;
  readonly #decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  readonly #head: Piece[] = [];
  #headBytes = 0;
  /** One piece per chunk, oldest first; trimmed to the cap lazily, when a snapshot is taken. */
  readonly #tail: Piece[] = [];
  #tailBytes = 0;
  #dropped = 0;
  #bytes = 0;
  readonly #onOutput?: ExecOutputListener;

  /** `onOutput` hears every decoded piece as it arrives, before (and whatever) the cap keeps. */
  constructor(maxBytes: number, onOutput?: ExecOutputListener) {
    this.#headCap = Math.floor(maxBytes * HEAD_SHARE);
    this.#tailCap = maxBytes - this.#headCap;
    this.#onOutput = onOutput;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Some output was dropped (or will be, when the next snapshot trims the tail to the cap). */
  get truncated(): boolean {
    return this.#dropped > 0 || this.#tailBytes > this.#tailCap;
  }

  push(stream: Stream, chunk: Buffer): void {
    this.#bytes += chunk.length;
    this.#keep(stream, this.#decoders[stream].write(chunk));
  }

  /** The command ended: an incomplete character at the very end is shown as U+FFFD. */
  end(): void {
    for (const stream of ['stdout', 'stderr'] as const) this.#keep(stream, this.#decoders[stream].end());
  }

  #keep(stream: Stream, text: string): void {
    if (text === '') return;
    this.#onOutput?.([{ stream, text }]);
    const room = this.#headCap - this.#headBytes;
    if (room > 0 && this.#tail.length === 0) {
      const head = prefixWithin(text, room);
      if (head !== '') {
        const bytes = Buffer.byteLength(head);
        const last = this.#head.at(-1);
        if (last?.stream === stream) Object.assign(last, { text: last.text + head, bytes: last.bytes + bytes });
        else this.#head.push({ stream, text: head, bytes });
        this.#headBytes += bytes;
      }
      if (head.length === text.length) return;
      this.#headBytes = this.#headCap; // full: what does not fit goes to the tail, never back to the head
      text = text.slice(head.length);
    }
    const bytes = Buffer.byteLength(text);
    this.#tail.push({ stream, text, bytes });
    this.#tailBytes += bytes;
    // Drop whole pieces that lie entirely before the last tailCap bytes.
    while (this.#tailBytes - this.#tail[0]!.bytes >= this.#tailCap) {
      const first = this.#tail.shift()!;
      this.#tailBytes -= first.bytes;
      this.#dropped += first.bytes;
    }
  }

  snapshot(): TranscriptSnapshot {
    const tail = this.#tail.map((p) => ({ ...p }));
    let dropped = this.#dropped;
    const excess = this.#tailBytes - this.#tailCap;
    if (excess > 0 && tail[0]) {
      // Cut the oldest piece from its front, at a character boundary.
      const encoded = Buffer.from(tail[0].text, 'utf8');
      let cut = excess;
      while (cut < encoded.length && (encoded[cut]! & 0xc0) === 0x80) cut += 1;
      tail[0] = { ...tail[0], text: encoded.subarray(cut).toString('utf8'), bytes: encoded.length - cut };
      dropped += cut;
    }
    const output: ExecOutputSegment[] = [];
    const text = { stdout: '', stderr: '' };
    const add = (p: Piece) => {
      if (p.text === '') return;
      text[p.stream] += p.text;
      const last = output.at(-1);
      if (last !== undefined && last.stream === p.stream) last.text += p.text;
      else output.push({ stream: p.stream, text: p.text });
    };
    this.#head.forEach(add);
    if (dropped > 0) output.push({ stream: 'omitted', bytes: dropped });
    tail.forEach(add);
    return { output, ...text, truncated: dropped > 0, bytes: this.#bytes };
  }
}
