import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { z } from 'zod';
import type { ToolInvokeResult, WorkspaceService } from '../../protocol/index.js';
import type { ToolDefinition } from '../../sdk/plugin-api.js';
import { LocalWorkspace } from '../../plugins/sandbox-local/src/local-workspace.js';

export interface TempWorkspace {
  dir: string;
  workspace: LocalWorkspace;
  file(name: string, content: string | Buffer): Promise<void>;
  text(name: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function tempWorkspace(options: { maxReadBytes?: number } = {}): Promise<TempWorkspace> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'pincer-tools-')));
  const workspace = new LocalWorkspace({ workspaceDir: dir, killGraceMs: 200, ...options });
  return {
    dir,
    workspace,
    async file(name, content) {
      await fs.mkdir(path.dirname(path.join(dir, name)), { recursive: true });
      await fs.writeFile(path.join(dir, name), content);
    },
    text: (name) => fs.readFile(path.join(dir, name), 'utf8'),
    cleanup: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

/** Call a tool in-process the way the SDK does: validate params with its schema, then run the handler. */
export async function callTool(
  tool: ToolDefinition<any>,
  args: Record<string, unknown>,
  workspace: WorkspaceService,
  signal: AbortSignal = new AbortController().signal,
  extra: Record<string, unknown> = {},
): Promise<ToolInvokeResult> {
  const params = (tool.inputSchema as z.ZodType).parse(args);
  const result = await tool.handler(params, { workspace, signal, progress: () => undefined, ...extra } as never);
  return typeof result === 'string' ? { content: [{ type: 'text', text: result }] } : result;
}

export function textOf(result: ToolInvokeResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

export function errorCodeOf(result: ToolInvokeResult): string | undefined {
  return (result.details as { error?: { code?: string } } | undefined)?.error?.code;
}
