/**
 * Runs with trigger `memory` (a memory flush): they must name the one workspace-relative file
 * they write (`memoryWritePath`), hold only `read` and `write` (the policy's memory layer), and
 * their `write` is the kernel's own: it appends to that one path through the session's sandbox
 * backend and refuses any other path, whatever the fs plugin would have done.
 */
import { posix } from 'node:path';
import type { KernelTool, ToolResult } from '../gate/index.js';
import type { ToolDefinition } from '../tool-search/search-tool.js';
import type { SessionPlacement, WorkspaceRouter } from '../workspace/router.js';
import { RunContextError } from './errors.js';

/** The run's memory path, normalized; throws when a memory run lacks one or names an unsafe one. */
export function memoryWritePathOf(run: { trigger?: string; memoryWritePath?: string }): string | undefined {
  if (run.trigger !== 'memory') return undefined;
  const raw = run.memoryWritePath;
  if (typeof raw !== 'string' || !raw.trim()) {
    throw new RunContextError('MEMORY_WRITE_PATH_REQUIRED', 'a run with trigger "memory" must name memoryWritePath, the one workspace-relative file it may append to (e.g. memory/2030-01-01.md)');
  }
  const normalized = posix.normalize(raw.trim().replaceAll('\\', '/'));
  if (normalized.startsWith('/') || normalized === '..' || normalized.startsWith('../') || normalized === '.' || normalized.endsWith('/') || normalized.includes('\0')) {
    throw new RunContextError('MEMORY_WRITE_PATH_INVALID', `memoryWritePath "${raw}" must be a file path relative to the workspace, inside it`);
  }
  return normalized;
}

const KERNEL_CALLER = 'kernel memory-run';

function refusal(code: string, message: string): ToolResult {
  return { content: [{ type: 'text', text: `Error [${code}]: ${message}` }], isError: true, details: { status: 'error', error: { code, message } } };
}

/** The memory run's `write` as listed: the plugin's schema, the kernel's description, no plugin. */
export function memoryWriteDefinition(base: ToolDefinition, writePath: string): ToolDefinition {
  return Object.freeze({ ...base, pluginId: undefined, description: `Append text to ${writePath} (the only file this memory run may write; existing content is kept).` });
}

/** The memory run's `write`: append-only, to `writePath` only, served by the kernel through the router. */
export function memoryWriteTool(definition: ToolDefinition, writePath: string, router: WorkspaceRouter, sessionKey: string, placement: SessionPlacement): KernelTool {
  return {
    ...definition,
    async execute(params, ctx): Promise<ToolResult> {
      const path = typeof params.path === 'string' ? posix.normalize(params.path.trim().replaceAll('\\', '/')) : '';
      if (path !== writePath) return refusal('MEMORY_PATH_ONLY', `this memory run may write only ${writePath}, not "${String(params.path)}"`);
      if (typeof params.content !== 'string' || (params.encoding !== undefined && params.encoding !== 'utf8')) return refusal('INVALID_ARGUMENTS', 'content must be utf8 text');
      // The kernel is the caller here: it binds itself to the session like any tool plugin, under
      // a name no configured plugin can have (ids have no spaces), so no plugin can borrow it.
      const { session, end } = router.beginCall(KERNEL_CALLER, sessionKey, placement);
      try {
        await router.handle(KERNEL_CALLER, session, 'write', { path: writePath, content: params.content, options: { append: true, mkdirs: true } }, ctx.signal);
        return { content: [{ type: 'text', text: `Appended ${Buffer.byteLength(params.content)} bytes to ${writePath}.` }], details: { status: 'ok', path: writePath, appended: true } };
      } catch (error) {
        const e = error as { workspaceCode?: unknown; code?: unknown };
        const code = e.workspaceCode ?? e.code;
        return refusal(typeof code === 'string' ? code : 'IO_ERROR', error instanceof Error ? error.message : String(error));
      } finally {
        end();
      }
    },
  };
}
