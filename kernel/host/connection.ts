import { ResponseError, createMessageConnection, type CancellationToken, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  ExecProgress,
  Log,
  LogParams,
  PluginStatusChanged,
  PluginStatusChangedParams,
  type PluginComponentStatus,
  MAX_UNREAD_ANSWER_BYTES,
  ProtocolErrorCodes,
  SandboxDirectFailure,
  SkillsListChanged,
  SkillsListChangedParams,
  ToolsListChanged,
  WORKSPACE_ERROR_CODES,
  WORKSPACE_METHODS,
  WORKSPACE_RUN_METHODS,
  type ExecProgressValue,
  type ExecRunOperation,
  type MessageTransport,
  type ProtocolErrorData,
  type WorkspaceOperation,
} from '../../protocol/index.js';
import type { z } from 'zod';
import { watchChannel } from './channel-state.js';
import { registerHostServices, type HostServices } from './host-services.js';
import type { PluginLogSink } from './plugin-log.js';
import { RequestLimit } from './request-limit.js';

type SandboxDirectFailureParams = z.infer<typeof SandboxDirectFailure.params>;

/**
 * Answers a plugin's `workspace/*` request; the kernel routes it to the session's sandbox.
 * `signal` aborts when the plugin cancels the request or its connection goes away.
 * `onProgress` (an `exec` that carried a progress token) relays the command's output so far.
 */
export type WorkspaceHandler = (
  pluginId: string,
  sessionKey: string | undefined,
  method: WorkspaceOperation | ExecRunOperation,
  params: Record<string, unknown>,
  signal: AbortSignal,
  onProgress?: (value: ExecProgressValue) => void,
) => Promise<unknown>;

/** A backend's report of a refusal it made on its direct channel; resolves once it is on record. */
export type DirectFailureHandler = (backendPluginId: string, report: SandboxDirectFailureParams) => Promise<void>;

export interface ConnectionHooks {
  pluginId: string;
  log: PluginLogSink;
  workspace: () => WorkspaceHandler | undefined;
  directFailure?: () => DirectFailureHandler | undefined;
  /** Turn and task services (absent in a bare host). */
  services?: () => HostServices | undefined;
  /** The raw `tools` of a `tools/listChanged`; checked tool by tool by the receiver. */
  onToolsChanged: (tools: unknown) => void;
  onSkillsChanged: (change: SkillsListChangedParams) => void;
  /** The plugin reported the state of its parts (`plugin/statusChanged`). */
  onStatusChanged?: (components: PluginComponentStatus[]) => void;
  /** Framing errors, oversized messages, stream errors. */
  onTransportError: (error: Error) => void;
  onClose: () => void;
}

const silent = { error: () => undefined, warn: () => undefined, info: () => undefined, log: () => undefined };

function workspaceError(error: unknown): ResponseError<ProtocolErrorData> {
  const e = error as { code?: unknown; workspaceCode?: unknown; message?: unknown; path?: string };
  const raw = typeof e?.workspaceCode === 'string' ? e.workspaceCode : e?.code;
  const code = (WORKSPACE_ERROR_CODES as readonly unknown[]).includes(raw) ? (raw as ProtocolErrorData['code']) : 'IO_ERROR';
  return new ResponseError(ProtocolErrorCodes.WorkspaceError, String(e?.message ?? error), { code, path: e?.path });
}

const busy = (pluginId: string): ResponseError<ProtocolErrorData> =>
  new ResponseError(ProtocolErrorCodes.WorkspaceError, `plugin "${pluginId}" has too many workspace requests in flight; wait for some to finish`, { code: 'IO_ERROR' });

/** The kernel's side of one plugin connection: host services and notifications wired in. */
export function openPluginConnection(transport: MessageTransport, hooks: ConnectionHooks): MessageConnection {
  const conn = createMessageConnection(transport.reader, transport.writer, silent);
  watchChannel(conn);
  const pending = new Set<AbortController>(); // workspace requests being served, aborted on close
  const limit = new RequestLimit();
  conn.onNotification(Log.type, (raw) => {
    const p = LogParams.safeParse(raw);
    if (p.success) hooks.log.write(p.data.level, p.data.message, p.data.data);
  });
  conn.onNotification(ToolsListChanged.type, (raw: unknown) => {
    const tools = (raw as { tools?: unknown } | null)?.tools;
    if (tools === undefined) hooks.log.write('error', 'ignored a tools/listChanged without a tools list');
    else hooks.onToolsChanged(tools);
  });
  conn.onNotification(SkillsListChanged.type, (raw) => {
    const p = SkillsListChangedParams.safeParse(raw);
    if (p.success) hooks.onSkillsChanged(p.data);
    else hooks.log.write('error', `ignored an invalid skills/listChanged: ${p.error.message}`);
  });
  conn.onNotification(PluginStatusChanged.type, (raw) => {
    const p = PluginStatusChangedParams.safeParse(raw);
    if (p.success) hooks.onStatusChanged?.(p.data.components);
    else hooks.log.write('warn', `ignored an invalid plugin/statusChanged: ${p.error.message}`);
  });
  const methods = { ...WORKSPACE_METHODS, ...WORKSPACE_RUN_METHODS };
  for (const [op, descriptor] of Object.entries(methods) as [WorkspaceOperation | ExecRunOperation, (typeof methods)[keyof typeof methods]][]) {
    conn.onRequest(descriptor.type as any, async (raw: unknown, token: CancellationToken) => {
      const parsed = descriptor.params.safeParse(raw);
      if (!parsed.success) return new ResponseError(ProtocolErrorCodes.InvalidParams, `invalid ${descriptor.method} params: ${parsed.error.message}`);
      const handler = hooks.workspace();
      if (!handler) return new ResponseError(ProtocolErrorCodes.CapabilityMissing, 'this kernel has no workspace service configured');
      const { sessionKey, progressToken, ...params } = parsed.data as Record<string, unknown> & { sessionKey?: string; progressToken?: string | number };
      // The plugin's token names its own request: the backend hop gets a token of the kernel's.
      const onProgress = progressToken === undefined ? undefined : (value: ExecProgressValue) => void conn.sendProgress(ExecProgress.type, progressToken, value).catch(() => undefined);
      const controller = new AbortController();
      const sub = token.onCancellationRequested(() => controller.abort(new Error('cancelled by the plugin')));
      pending.add(controller);
      const release = await limit.acquire(controller.signal);
      try {
        if (!release) return controller.signal.aborted ? workspaceError(controller.signal.reason) : busy(hooks.pluginId);
        // A plugin that asks and never reads its answers gets no more served until it does.
        await transport.backlogBelow?.(MAX_UNREAD_ANSWER_BYTES, controller.signal);
        if (controller.signal.aborted) return workspaceError(controller.signal.reason);
        return (await handler(hooks.pluginId, sessionKey, op, params, controller.signal, onProgress)) ?? null;
      } catch (error) {
        return workspaceError(error);
      } finally {
        release?.();
        sub.dispose();
        pending.delete(controller);
      }
    });
  }
  conn.onRequest(SandboxDirectFailure.type as never, async (raw: unknown) => {
    const parsed = SandboxDirectFailure.params.safeParse(raw);
    if (!parsed.success) return new ResponseError(ProtocolErrorCodes.InvalidParams, `invalid ${SandboxDirectFailure.method} params: ${parsed.error.message}`);
    const handler = hooks.directFailure?.();
    if (!handler) return new ResponseError(ProtocolErrorCodes.CapabilityMissing, 'this kernel has no workspace service configured');
    try {
      await handler(hooks.pluginId, parsed.data);
      return null;
    } catch (error) {
      return new ResponseError(ProtocolErrorCodes.InvalidParams, error instanceof Error ? error.message : String(error));
    }
  });
  if (hooks.services) registerHostServices(conn, hooks.pluginId, hooks.log, hooks.services, pending);
  conn.onError(([error]) => hooks.onTransportError(error));
  conn.onClose(() => {
    for (const c of pending) c.abort(new Error(`plugin "${hooks.pluginId}" disconnected`));
    pending.clear();
    hooks.onClose();
  });
  conn.listen();
  return conn;
}
