/**
 * The kernel's cap on what one tool result may carry, whatever the plugin sent: text is cut (on
 * a character boundary) and images that do not fit are replaced, each with a note saying so.
 * The message size cap bounds the wire; this bounds what reaches the model and the caller.
 */
import type { ToolContent, ToolInvokeResult } from '../../protocol/index.js';
import { SchemaBudget, SchemaLimitError, measureJson } from '../schema/index.js';

/** Nesting and size any plugin-supplied JSON value may have before kernel code walks it. */
export function jsonValueProblem(value: unknown, maxBytes: number): string | undefined {
  try {
    measureJson(value, new SchemaBudget({ maxBytes, maxDepth: 64, maxNodes: 100_000 }));
    return undefined;
  } catch (error) {
    if (error instanceof SchemaLimitError) return error.message;
    throw error;
  }
}

function note(droppedBytes: number, cap: number): string {
  return `\n[result cut by the kernel: ${droppedBytes} more bytes over the ${cap}-byte cap on a tool result]`;
}

/** UTF-8 prefix of `text` no longer than `maxBytes` bytes, never splitting a character. */
function utf8Prefix(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1; // back up to a character start
  return bytes.subarray(0, end).toString('utf8');
}

function sizeOf(block: ToolContent): number {
  if (block.type === 'text') return Buffer.byteLength(block.text, 'utf8');
  if (block.type === 'image' || block.type === 'audio') return block.data.length;
  // Resources and links (MCP content a bridged server sent): their whole encoding counts.
  return Buffer.byteLength(JSON.stringify(block), 'utf8');
}

/** `result` with its content within `maxBytes`; unchanged (same object) when it already fits. */
export function capToolResult(result: ToolInvokeResult, maxBytes: number): ToolInvokeResult {
  const total = result.content.reduce((sum, block) => sum + sizeOf(block), 0);
  // Measured without recursion: `details` may be nested deeper than any recursive walk survives.
  const detailsProblem = result.details === undefined ? undefined : jsonValueProblem(result.details, maxBytes);
  const structuredProblem = result.structuredContent === undefined ? undefined : jsonValueProblem(result.structuredContent, maxBytes);
  if (total <= maxBytes && !detailsProblem && !structuredProblem) return result;
  let left = maxBytes;
  const content: ToolContent[] = [];
  for (const block of result.content) {
    const size = sizeOf(block);
    if (size <= left) {
      content.push(block);
      left -= size;
    } else if (block.type === 'text' && left > 0) {
      content.push({ type: 'text', text: utf8Prefix(block.text, left) });
      left = 0;
    } else {
      const kind = block.type === 'image' || block.type === 'audio' ? `${block.type} (${block.mimeType})` : `${block.type} block`;
      content.push({ type: 'text', text: `[${kind} of ${size} bytes dropped by the kernel]` });
    }
  }
  if (total > maxBytes) content.push({ type: 'text', text: note(total - maxBytes, maxBytes) });
  const details = detailsProblem ? { truncated: true, note: `details dropped by the kernel: ${detailsProblem}` } : result.details;
  const { structuredContent, ...rest } = result;
  // Structured content over the cap is left out, not cut: a cut value would not match its schema.
  return { ...rest, content, ...(details === undefined ? {} : { details }), ...(structuredContent && !structuredProblem ? { structuredContent } : {}) };
}
