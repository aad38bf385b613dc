import type { ExecOutputSegment } from '../../../../protocol/index.js';

/** A command's output as the model reads it, and the facts the status line reports about it. */
export interface RenderedOutput {
  text: string;
  empty: boolean;
  /** The output ended without a newline (shown in the status line, or the model cannot tell). */
  missingFinalNewline: boolean;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** A configured duration, exactly: `0.3`, `45`, `1800`. */
export function formatSeconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}

/** A measured duration, to a tenth of a second. */
export function formatDuration(ms: number): string {
  return (ms / 1000).toFixed(1);
}

const OMITTED_IN_RESULT = (bytes: number): string => `[... ${formatBytes(bytes)} of output omitted here; the start and the end are kept ...]`;

/**
 * Labels output as the model reads it: stdout as it is; stderr under a `[stderr]` label, and
 * stdout again under `[stdout]` when it resumes, in the order the backend received them; a
 * dropped stretch as one marked line. It keeps its place from one call to the next, so output
 * rendered piece by piece (progress) reads exactly as the same output rendered at once.
 */
export class OutputLabeller {
  #stream: 'stdout' | 'stderr' = 'stdout';
  /** The text so far is not empty and does not end with a newline. */
  #lineOpen = false;
  /** The text of the last stdout or stderr segment. */
  last = '';

  constructor(private readonly omitted: (bytes: number) => string = OMITTED_IN_RESULT) {}

  render(segments: readonly ExecOutputSegment[]): string {
    let text = '';
    const append = (piece: string): void => {
      if (piece === '') return;
      text += piece;
      this.#lineOpen = !piece.endsWith('\n');
    };
    const newline = (): void => {
      if (this.#lineOpen) append('\n');
    };
    for (const segment of segments) {
      if (segment.stream === 'omitted') {
        newline();
        append(`${this.omitted(segment.bytes)}\n`);
        continue;
      }
      if (segment.stream !== this.#stream) {
        newline();
        append(`[${segment.stream}]\n`);
        this.#stream = segment.stream;
      }
      append(segment.text);
      this.last = segment.text;
    }
    return text;
  }
}

/** A command's whole output, labelled (see OutputLabeller), with the dropped middle marked in place. */
export function renderOutput(segments: readonly ExecOutputSegment[] = []): RenderedOutput {
  const labeller = new OutputLabeller();
  const text = labeller.render(segments);
  return { text, empty: text === '', missingFinalNewline: labeller.last !== '' && !labeller.last.endsWith('\n') };
}

/** The output block of a result: the rendered text, or a placeholder, ending before the status line. */
export function outputBlock(rendered: RenderedOutput): string {
  return rendered.empty ? '(no output)' : rendered.text.replace(/\n$/, '');
}
