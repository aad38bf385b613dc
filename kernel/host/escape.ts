/**
 * Plugin text reaches terminals and log files. Control characters in it could move the cursor,
 * clear the screen, set the window title, or start a new log line that looks like another
 * source's; escaping makes them visible instead. One helper, used by the host and the CLI.
 */

// C0 controls, DEL, C1 controls, the Unicode line/paragraph separators and the bidi overrides
// and isolates (which reorder what a reader sees).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const UNSAFE_KEEP_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

export interface EscapeOptions {
  /** Keep `\n` and `\t` (multi-line text such as a tool result); `\r` is always escaped. */
  keepNewlines?: boolean;
  /** Cut the result to this many characters, saying how much was cut. */
  maxChars?: number;
}

/** Text safe to print on a terminal or in a one-line log record: control characters become visible escapes. */
export function escapeForTerminal(text: string, options: EscapeOptions = {}): string {
  const max = options.maxChars;
  // Cut before escaping so a huge input never costs a huge intermediate string.
  const cut = max !== undefined && text.length > max ? text.slice(0, max) : text;
  const escaped = cut.replace(options.keepNewlines ? UNSAFE_KEEP_LINES : UNSAFE, escapeChar);
  return cut === text ? escaped : `${escaped}… (${text.length - cut.length} more characters)`;
}
