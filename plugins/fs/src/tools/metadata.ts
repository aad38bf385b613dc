/**
 * What the fs tools declare for clients beside their schemas: a title, truthful behaviour hints
 * (`ls` and `read` only read; `write`, `edit` and `apply_patch` overwrite files), and an output
 * schema of the facts each result's details carry (`pincer serve` sends them as structuredContent).
 * No property is required: every result, whatever path it took, validates.
 */
import type { ToolDefinition } from '../../../../sdk/plugin-api.js';

const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;
const bool = { type: 'boolean' } as const;
const object = (properties: Record<string, unknown>) => ({ type: 'object', properties });

const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const overwrites = (idempotent: boolean) => ({ readOnlyHint: false, destructiveHint: true, idempotentHint: idempotent, openWorldHint: false });

export const FS_TOOL_METADATA: Record<string, Pick<ToolDefinition, 'title' | 'annotations' | 'outputSchema'>> = {
  ls: {
    title: 'List a directory',
    annotations: readOnly,
    outputSchema: object({ path: str, total: int, truncated: bool, hidden: int, entries: { type: 'array' } }),
  },
  read: {
    title: 'Read a file',
    annotations: readOnly,
    outputSchema: object({ path: str, size: int, totalLines: int, startLine: int, endLine: int, truncated: bool, encoding: str, notUtf8: bool }),
  },
  write: { title: 'Write a file', annotations: overwrites(true), outputSchema: object({ path: str, bytes: int }) },
  edit: { title: 'Edit a file', annotations: overwrites(false), outputSchema: object({ path: str, replacements: int, lines: { type: 'array', items: int }, bytes: int }) },
  apply_patch: {
    title: 'Apply a patch',
    annotations: overwrites(false),
    outputSchema: object({ changes: { type: 'array', items: object({ op: str, path: str, newPath: str }) } }),
  },
};

/** A tool with its metadata. */
export function withFsMetadata(tool: ToolDefinition<any>): ToolDefinition<any> {
  return { ...tool, ...FS_TOOL_METADATA[tool.name] };
}
