/**
 * A progress indicator on stderr: one status line with a spinner (plugin start, a call), and
 * above it the last few lines of a running command's output when the call streams it. It draws
 * only on a terminal: piped stderr (CI logs, MCP hosts capturing `pincer serve`) gets nothing,
 * so logs stay clean. Everything it shows is plugin text, drawn with control characters escaped.
 */
import { escapeForTerminal } from '../../kernel/host/escape.js';
import type { OutStream } from '../context.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Output lines kept above the status line: a live view, erased when the call ends (the result follows). */
const OUTPUT_LINES = 8;

export interface Progress {
  /** Replaces the status text shown after the spinner. */
  update(text: string): void;
  /** Adds output so far to the lines shown above the status line. */
  output(text: string): void;
  /** Erases what it drew; the caller prints the outcome if it wants one. */
  done(): void;
}

/** One line as a terminal would leave it: what follows its last carriage return, tabs as spaces, controls escaped, cut to fit. */
function visible(line: string, width: number): string {
  const redrawn = line.replace(/\r+$/, '');
  const shown = escapeForTerminal(redrawn.slice(redrawn.lastIndexOf('\r') + 1).replace(/\t/g, '    '));
  return shown.length > width - 1 ? `${shown.slice(0, width - 2)}…` : shown;
}

export function startProgress(stream: OutStream, text: string, intervalMs = 80): Progress {
  if (!stream.isTTY) return { update() {}, output() {}, done() {} };
  let frame = 0;
  let current = text;
  let lines: string[] = [];
  let partial = '';
  /** Output lines drawn above the status line, which each draw starts by moving up over. */
  let drawnAbove = 0;
  const up = () => `\r${drawnAbove > 0 ? `\u001b[${drawnAbove}A` : ''}`;
  const draw = () => {
    // A pty without a window size (`script`, some CI runners) reports 0 columns.
    const width = stream.columns || 80;
    const shown = (partial === '' ? lines : [...lines, partial]).slice(-OUTPUT_LINES);
    const above = shown.map((line) => `\u001b[2K${visible(line, width)}\n`).join('');
    // Erase-line and erase-below keep it to its own lines however often it is redrawn.
    stream.write(`${up()}${above}\u001b[J${visible(`${FRAMES[frame++ % FRAMES.length]} ${current}`, width)}`);
    drawnAbove = shown.length;
  };
  draw();
  const timer = setInterval(draw, intervalMs);
  timer.unref();
  return {
    update(next) {
      current = next;
    },
    output(more) {
      const split = `${partial}${more}`.split('\n');
      partial = split.pop()!;
      lines = [...lines, ...split].slice(-OUTPUT_LINES);
      draw();
    },
    done() {
      clearInterval(timer);
      stream.write(`${up()}\u001b[J`);
      drawnAbove = 0;
    },
  };
}
