/**
 * Prints a tool result for a terminal: text, JSON pretty-printed, images as a one-line
 * placeholder (base64 on a terminal helps nobody; `--json` keeps the data). Every block is
 * plugin text, so control characters are shown as escapes (newlines and tabs kept): a result
 * must not set the window title, clear the screen or rewrite lines the operator already read.
 * `--json` stays the exact data.
 */
import { escapeForTerminal } from '../../kernel/host/escape.js';
import type { Colors } from './color.js';
import type { CallResult, ToolContent, ToolResult } from '../kernel.js';

const shown = (text: string): string => escapeForTerminal(text, { keepNewlines: true });

export function formatContent(block: ToolContent): string {
  switch (block.type) {
    case 'text':
      return shown(block.text);
    case 'json':
      // JSON.stringify escapes C0 controls in strings but not C1 ones or U+2028/2029.
      return shown(JSON.stringify(block.json, null, 2));
    case 'image':
      return `[image ${shown(block.mimeType)}, ${approxBytes(block.data)} bytes]`;
    default:
      // A content type newer than this CLI: show it rather than drop it.
      return shown(JSON.stringify(block));
  }
}

export function formatResult(result: ToolResult): string {
  return result.content.map(formatContent).join('\n');
}

/**
 * The `--json` shape of a call, as the library returns it (outcome, code, retryable, isError,
 * content, details, error, plugin), minus `cause`, which is a live object, not data.
 */
export function callResultJson(tool: string, result: CallResult): Record<string, unknown> {
  const { cause: _cause, ...data } = result as CallResult & { cause?: unknown };
  return { tool, ...data };
}

/** `✗ read blocked (HOOK_BLOCKED)`: the outcome and its code, for stderr. */
export function formatCallFailure(tool: string, result: CallResult, c: Colors): string {
  if (!result.isError) return '';
  const retry = result.retryable ? c.dim(' · retryable') : '';
  // A plugin's error can carry its own code: shown escaped like the rest of its text.
  return `${c.red('✗')} ${escapeForTerminal(tool)} ${result.outcome.replace('_', ' ')} (${escapeForTerminal(String(result.code))})${retry}`;
}

function approxBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}
