/**
 * What the shell tools declare for clients beside their schemas: a title, truthful hints (`exec`
 * runs any command: it may change or destroy anything and reach the network; `process` reads and
 * kills background runs), and an output schema of the facts each result's details carry (exit
 * code, signal, deadline, truncation, duration, background run). No property is required.
 */
import type { ToolDefinition } from '../../../../sdk/plugin-api.js';

const nullable = (type: string) => ({ type: [type, 'null'] });
const str = { type: 'string' } as const;
const bool = { type: 'boolean' } as const;
const num = { type: 'number' } as const;

const RUN_FACTS = {
  command: str,
  cwd: str,
  exitCode: nullable('integer'),
  signal: nullable('string'),
  timedOut: bool,
  truncated: bool,
  durationMs: num,
  timeoutMs: num,
  background: bool,
  sessionId: str,
  status: str,
};

export const SHELL_TOOL_METADATA: Record<string, Pick<ToolDefinition, 'title' | 'annotations' | 'outputSchema'>> = {
  exec: {
    title: 'Run a shell command',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    outputSchema: { type: 'object', properties: RUN_FACTS },
  },
  process: {
    title: 'Manage background runs',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    outputSchema: { type: 'object', properties: { ...RUN_FACTS, totalLines: { type: 'integer' }, runs: { type: 'array' } } },
  },
};

export function withShellMetadata(tool: ToolDefinition<any>): ToolDefinition<any> {
  return { ...tool, ...SHELL_TOOL_METADATA[tool.name] };
}
