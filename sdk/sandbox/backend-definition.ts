import type { SandboxPrepareParams } from '../../protocol/v1/sandbox.js';
import type { WorkspaceService } from '../../protocol/v1/workspace-types.js';
import { WORKSPACE_ERROR_CODES } from '../../protocol/v1/workspace-types.js';
import { ProtocolErrorCodes } from '../../protocol/v1/errors.js';
import { CancelledError, PluginError, WorkspaceError } from '../plugin-api.js';
import type { HandlerContext, SandboxBackendDefinition } from '../plugin-api.js';
import { SandboxError } from './errors.js';
import { RunTable } from './runs/run-table.js';
import { asRunCapable, runOperations } from './runs/run-operations.js';

/** A prepared session's workspace as a backend keeps it. */
export interface OpenedWorkspace {
  workspace: WorkspaceService;
  workdir: string;
  reused?: boolean;
  close?(): Promise<void>;
}

export interface WorkspaceBackendSpec {
  id: string;
  open(params: SandboxPrepareParams, ctx: HandlerContext): Promise<OpenedWorkspace>;
}

const WORKSPACE_CODES = new Set<string>(WORKSPACE_ERROR_CODES);

/**
 * Sandbox errors on the wire: per-path refusals travel as WorkspaceError with
 * `data.code`; backend failures (security, engine down…) as ToolFailed-family errors
 * whose `data.detail.code` keeps the sandbox code for formatters.
 */
export function toWireError(error: unknown): unknown {
  if (!(error instanceof SandboxError)) return error;
  if (error.code === 'CANCELLED') return new CancelledError(error.message);
  if (WORKSPACE_CODES.has(error.code)) {
    return new WorkspaceError(error.code as (typeof WORKSPACE_ERROR_CODES)[number], error.message, { path: error.data?.path as string | undefined, cause: error });
  }
  return new PluginError(ProtocolErrorCodes.InternalError, error.message, { detail: { code: error.code, ...error.data } }, { cause: error });
}

/**
 * A SandboxBackendDefinition for any backend that yields a WorkspaceService per session:
 * keeps the opened workspaces by session and routes `sandbox/<op>` to them. Entrypoints
 * stay thin wrappers around this.
 */
export function defineWorkspaceBackend(spec: WorkspaceBackendSpec): SandboxBackendDefinition {
  const sessions = new Map<string, Promise<OpenedWorkspace>>();
  const get = async (session: string): Promise<WorkspaceService> => {
    const opened = sessions.get(session);
    if (!opened) throw new WorkspaceError('PATH_NOT_ADMITTED', `No sandbox prepared for session "${session}" on backend "${spec.id}"; the kernel must call sandbox/prepare first.`);
    return (await opened).workspace;
  };
  const wire = <T>(p: Promise<T>) => p.catch((e: unknown) => { throw toWireError(e); });
  const runTable = new RunTable(); // one per backend: run limits span its sessions
  return {
    id: spec.id,
    async prepare(params, ctx) {
      const opening = spec.open(params, ctx);
      sessions.set(params.session, opening);
      opening.catch(() => sessions.delete(params.session));
      const opened = await wire(opening);
      return { session: params.session, workdir: opened.workdir, reused: opened.reused };
    },
    async release(session) {
      const opened = sessions.get(session);
      sessions.delete(session);
      await wire((async () => { await (await opened)?.close?.(); })());
    },
    operations: {
      read: (p, ctx) => wire(get(p.session).then((w) => w.read(p.path, p.options, ctx.signal))),
      write: (p, ctx) => wire(get(p.session).then((w) => w.write(p.path, p.content, p.options, ctx.signal))),
      stat: (p, ctx) => wire(get(p.session).then((w) => w.stat(p.path, ctx.signal))),
      readDirectory: (p, ctx) => wire(get(p.session).then((w) => w.readDirectory(p.path, ctx.signal))),
      mkdir: (p, ctx) => wire(get(p.session).then((w) => w.mkdir(p.path, p.options, ctx.signal)).then(() => null)),
      remove: (p, ctx) => wire(get(p.session).then((w) => w.remove(p.path, p.options, ctx.signal)).then(() => null)),
      rename: (p, ctx) => wire(get(p.session).then((w) => w.rename(p.from, p.to, ctx.signal)).then(() => null)),
      exec: (p, ctx) => wire(get(p.session).then((w) => w.exec(p.command, p.options, ctx.signal))),
      ...runOperations(runTable, async (session) => asRunCapable(await get(session))),
    },
  };
}
