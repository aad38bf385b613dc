import type { SandboxPrepareParams } from '../../protocol/v1/sandbox.js';
import type { WorkspaceService } from '../../protocol/v1/workspace-types.js';
import { WORKSPACE_ERROR_CODES } from '../../protocol/v1/workspace-types.js';
import { ProtocolErrorCodes } from '../../protocol/v1/errors.js';
import { CancelledError, PluginError, WorkspaceError } from '../plugin-api.js';
import type { HandlerContext, SandboxAdminHandlers, SandboxBackendDefinition } from '../plugin-api.js';
import { SandboxError, isSandboxError } from './errors.js';
import { RunTable } from './runs/run-table.js';
import { execReportingOutput } from './shell/output-reports.js';
import { asRunCapable, runOperations } from './runs/run-operations.js';

/** A prepared session's workspace as a backend keeps it. */
export interface OpenedWorkspace {
  workspace: WorkspaceService;
  workdir: string;
  reused?: boolean;
  /** Called on every operation of the session, so "last used" follows real use (prune). */
  onUse?(): void;
  close?(): Promise<void>;
}

export interface WorkspaceBackendSpec {
  id: string;
  open(params: SandboxPrepareParams, ctx: HandlerContext): Promise<OpenedWorkspace>;
  /**
   * After an operation fails with SANDBOX_GONE (the container died or was replaced), the next
   * operation of that session opens it again with the prepare params (docker: a verified
   * container, started or recreated) instead of failing for the rest of the session.
   */
  reopenWhenGone?: boolean;
  /** Operator methods (`pincer sandbox …`); their sandbox errors reach the CLI like an operation's. */
  admin?: SandboxAdminHandlers;
}

interface Session {
  opening: Promise<OpenedWorkspace>;
  reopen(): Promise<OpenedWorkspace>;
  gone?: boolean;
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
  if (error.code === 'SECURITY_VIOLATION') {
    // The caller is a tool, so maybe a model: it gets the refusal, never how to lift it (the operator's
    // `pincer config check` / `sandbox check` show the fix).
    const summary = typeof error.data?.summary === 'string' ? error.data.summary : 'Sandbox security: this session\'s sandbox configuration was refused.';
    return new WorkspaceError('SECURITY_VIOLATION', `${summary} The operator must change the sandbox configuration (pincer config check shows how).`, { cause: error });
  }
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
  const sessions = new Map<string, Session>();
  const get = async (session: string): Promise<WorkspaceService> => {
    const entry = sessions.get(session);
    if (!entry) throw new WorkspaceError('PATH_NOT_ADMITTED', `No sandbox prepared for session "${session}" on backend "${spec.id}"; the kernel must call sandbox/prepare first.`);
    if (entry.gone) {
      entry.gone = false;
      entry.opening = entry.reopen();
    }
    const ready = await entry.opening.catch((error: unknown) => {
      if (spec.reopenWhenGone) entry.gone = true; // a failed re-open is tried again by the next call
      throw error;
    });
    ready.onUse?.();
    return ready.workspace;
  };
  const wire = <T>(p: Promise<T>, session?: string) => p.catch((e: unknown) => {
    const entry = session === undefined ? undefined : sessions.get(session);
    if (entry && spec.reopenWhenGone && isSandboxError(e, 'SANDBOX_GONE')) entry.gone = true;
    throw toWireError(e);
  });
  const op = <T>(session: string, run: (w: WorkspaceService) => Promise<T>) => wire(get(session).then(run), session);
  const runTable = new RunTable(); // one per backend: run limits span its sessions
  const admin = Object.fromEntries(
    Object.entries(spec.admin ?? {}).map(([name, handler]) => [name, (p: never, ctx: HandlerContext) => wire(Promise.resolve().then(() => (handler as (p: never, c: HandlerContext) => unknown)(p, ctx)))]),
  ) as SandboxAdminHandlers;
  return {
    id: spec.id,
    admin,
    async prepare(params, ctx) {
      const opening = spec.open(params, ctx);
      sessions.set(params.session, { opening, reopen: () => spec.open(params, ctx) });
      opening.catch(() => sessions.delete(params.session));
      const opened = await wire(opening);
      return { session: params.session, workdir: opened.workdir, reused: opened.reused };
    },
    async release(session) {
      const opened = sessions.get(session)?.opening;
      sessions.delete(session);
      await wire((async () => { await (await opened)?.close?.(); })());
    },
    operations: {
      read: (p, ctx) => op(p.session, (w) => w.read(p.path, p.options, ctx.signal)),
      write: (p, ctx) => op(p.session, (w) => w.write(p.path, p.content, p.options, ctx.signal)),
      stat: (p, ctx) => op(p.session, (w) => w.stat(p.path, ctx.signal)),
      readDirectory: (p, ctx) => op(p.session, (w) => w.readDirectory(p.path, ctx.signal)),
      mkdir: (p, ctx) => op(p.session, (w) => w.mkdir(p.path, p.options, ctx.signal).then(() => null)),
      remove: (p, ctx) => op(p.session, (w) => w.remove(p.path, p.options, ctx.signal).then(() => null)),
      rename: (p, ctx) => op(p.session, (w) => w.rename(p.from, p.to, ctx.signal).then(() => null)),
      exec: (p, ctx) => op(p.session, (w) => execReportingOutput(w, p, ctx)),
      ...runOperations(runTable, async (session) => asRunCapable(await get(session))),
    },
  };
}
