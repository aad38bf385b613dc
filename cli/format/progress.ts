/**
 * A one-line progress indicator on stderr, for plugin start. It draws only on a terminal: piped
 * stderr (CI logs, MCP hosts capturing `pincer serve`) gets nothing, so logs stay clean. Its text
 * can be a plugin's progress message, drawn with control characters escaped.
 */
import { escapeForTerminal } from '../../kernel/host/escape.js';
import type { OutStream } from '../context.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface Progress {
  /** Replaces the status text shown after the spinner. */
  update(text: string): void;
  /** Erases the line; the caller prints the outcome if it wants one. */
  done(): void;
}

export function startProgress(stream: OutStream, text: string, intervalMs = 80): Progress {
  if (!stream.isTTY) return { update() {}, done() {} };
  let frame = 0;
  let current = text;
  const draw = () => {
    const line = `${FRAMES[frame++ % FRAMES.length]} ${escapeForTerminal(current)}`;
    const width = stream.columns ?? 80;
    // \r + erase-line keeps it to one line however often it is redrawn.
    stream.write(`\r\u001b[2K${line.length > width - 1 ? `${line.slice(0, width - 2)}…` : line}`);
  };
  draw();
  const timer = setInterval(draw, intervalMs);
  timer.unref();
  return {
    update(next) {
      current = next;
    },
    done() {
      clearInterval(timer);
      stream.write('\r\u001b[2K');
    },
  };
}
