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

const withNewline = (text: string): string => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

/**
 * stdout as it is; stderr under a `[stderr]` label, and stdout again under `[stdout]` when it
 * resumes, in the order the backend received them; the dropped middle of a long output as
 * one marked line.
 */
export function renderOutput(segments: readonly ExecOutputSegment[] = []): RenderedOutput {
  let text = '';
  let current: 'stdout' | 'stderr' = 'stdout';
  let last = '';
  for (const segment of segments) {
    if (segment.stream === 'omitted') {
      text = `${withNewline(text)}[... ${formatBytes(segment.bytes)} of output omitted here; the start and the end are kept ...]\n`;
      continue;
    }
    if (segment.stream !== current) {
      text = `${withNewline(text)}[${segment.stream}]\n`;
      current = segment.stream;
    }
    text += segment.text;
    last = segment.text;
  }
  return { text, empty: text === '', missingFinalNewline: last !== '' && !last.endsWith('\n') };
}

/** The output block of a result: the rendered text, or a placeholder, ending before the status line. */
export function outputBlock(rendered: RenderedOutput): string {
  return rendered.empty ? '(no output)' : rendered.text.replace(/\n$/, '');
}
