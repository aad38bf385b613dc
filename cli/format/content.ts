/**
 * Prints a tool result for a terminal: text as-is, JSON pretty-printed, images as a one-line
 * placeholder (base64 on a terminal helps nobody; `--json` keeps the data).
 */
import type { Colors } from './color.js';
import type { ToolContent, ToolResult } from '../kernel.js';

export function formatContent(block: ToolContent): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'json':
      return JSON.stringify(block.json, null, 2);
    case 'image':
      return `[image ${block.mimeType}, ${approxBytes(block.data)} bytes]`;
    default:
      // A content type newer than this CLI: show it rather than drop it.
      return JSON.stringify(block);
  }
}

export function formatResult(result: ToolResult): string {
  return result.content.map(formatContent).join('\n');
}

/** How the gate ended a call that did not run: "blocked", "timed_out"..., from the result details. */
export function callOutcome(result: ToolResult): string | undefined {
  const details = result.details ?? {};
  for (const key of ['disposition', 'status', 'deniedReason']) {
    const value = details[key];
    if (typeof value === 'string' && value !== 'ok' && value !== 'completed') return value;
  }
  return undefined;
}

export function formatCallFailure(tool: string, result: ToolResult, c: Colors): string {
  const outcome = callOutcome(result);
  return `${c.red('✗')} ${tool} ${outcome ? `ended: ${outcome}` : 'returned an error'}`;
}

function approxBytes(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((base64.length * 3) / 4) - padding);
}
