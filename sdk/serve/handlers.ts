import { ResponseError, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  BeforeToolCallEvent,
  AfterToolCallEvent,
  HookAfterToolCall,
  HookBeforeToolCall,
  ProtocolErrorCodes,
  EXEC_RUN_OPERATIONS,
  ExecProgress,
  SANDBOX_ADMIN_METHODS,
  SANDBOX_METHODS,
  SANDBOX_RUN_METHODS,
  SandboxPrepare,
  SandboxPrepareParams,
  SandboxRelease,
  SkillsList,
  SkillsListChanged,
  SkillsListParams,
  SkillsListResult,
  TasksCancel,
  TasksQuery,
  TasksRecord,
  TasksReport,
  TasksRequestCancel,
  ToolInvoke,
  ToolInvokeParams,
  ToolProgress,
  WORKSPACE_OPERATIONS,
  type CallContext,
  type ExecProgressValue,
  type ExecRunOperation,
  type WorkspaceService,
  type ProtocolErrorData,
  type ToolInvokeResult,
  type WorkspaceOperation,
} from '../../protocol/index.js';
import { isZodSchema } from '../plugin/define.js';
import type { HandlerContext, PluginDefinition, SandboxBackendDefinition, SandboxOperationContext, ToolContext, ToolDefinition, ToolReturn } from '../plugin/types.js';
import { signalFor, type CallSignal } from './call-signal.js';
import { baseContext, ownProperty } from './context.js';
import { invalidArgumentsResult } from './invalid-arguments.js';
import { guarded } from './wire-errors.js';
import { createWorkspaceProxy } from './workspace-proxy.js';
import { directChannel } from './direct-sessions.js';
import { createCallKernelClient, type CallKernelClient } from './kernel-client.js';

/** Shared state the handlers read; owned by bindPlugin. */
export interface PluginState {
  ready: boolean;
  settings: Record<string, unknown>;
  tools: Map<string, ToolDefinition<any>>;
  shutdown: AbortController;
  log: HandlerContext['log'];
  /** Hooks chosen by `activate`, in place of the definition's. */
  hooks?: PluginDefinition['hooks'];
}

const notReady = (): ResponseError<ProtocolErrorData> => new ResponseError<ProtocolErrorData>(ProtocolErrorCodes.PluginNotReady, 'the handshake has not completed');
const asResult = (r: ToolReturn): ToolInvokeResult => (typeof r === 'string' ? { content: [{ type: 'text', text: r }] } : r);

/**
 * A tool handler's context. The workspace proxy and the kernel client are built when the handler
 * first uses them (most calls use neither), like the call's signal. A class, because an object
 * literal with getters is built on V8's slow path (about 1.3 µs here, per call); its state is in
 * `#` fields, so nothing of it shows to the handler. Spreading it (`{ ...ctx }`) does not copy the
 * getters: code that extends a context assigns onto it instead.
 */
class ToolCallContext implements ToolContext {
  readonly #conn: MessageConnection;
  readonly #request: CallSignal;
  readonly #context: CallContext | undefined;
  readonly #progressToken: string | number | undefined;
  #workspace: WorkspaceService | undefined;
  #kernel: CallKernelClient | undefined;
  readonly settings: Record<string, unknown>;
  readonly log: ToolContext['log'];
  readonly call: CallContext;

  constructor(conn: MessageConnection, state: PluginState, request: CallSignal, context: CallContext | undefined, progressToken: string | number | undefined) {
    this.#conn = conn;
    this.#request = request;
    this.#context = context;
    this.#progressToken = progressToken;
    this.settings = state.settings;
    this.log = state.log;
    this.call = context ?? {};
  }

  get signal(): AbortSignal {
    return this.#request.signal;
  }

  get workspace(): WorkspaceService {
    return (this.#workspace ??= createWorkspaceProxy(this.#conn, this.#context?.sessionKey, this.#request.signal, this.#context?.workspaceChannel));
  }

  get kernel(): CallKernelClient {
    return (this.#kernel ??= createCallKernelClient(this.#conn, this.#context?.callToken));
  }

  // Assignable, as the type (and the object literal before it) allows: a handler wrapping its workspace.
  set signal(value: AbortSignal) {
    ownProperty(this, 'signal', value);
  }

  set workspace(value: WorkspaceService) {
    ownProperty(this, 'workspace', value);
  }

  set kernel(value: CallKernelClient) {
    ownProperty(this, 'kernel', value);
  }

  // Arrow properties: handlers pass these on detached (`const { progress } = ctx`).
  readonly reportTask = (task: Parameters<ToolContext['reportTask']>[0]): void =>
    void this.#conn.sendNotification(TasksReport.type, { ...task, sessionKey: this.#context?.sessionKey }).catch(() => undefined);

  readonly progress = (value: Parameters<ToolContext['progress']>[0]): void => {
    if (this.#progressToken !== undefined) void this.#conn.sendProgress(ToolProgress.type, this.#progressToken, value).catch(() => undefined);
  };
}

export function registerToolHandlers(conn: MessageConnection, state: PluginState): void {
  conn.onRequest(ToolInvoke.type, async (raw, token) => {
    if (!state.ready) return notReady();
    const call = signalFor(token, state.shutdown.signal);
    // Params are the kernel's to get right, not ours to trust: null params are InvalidParams, not a TypeError.
    const named = (raw as { name?: unknown } | null | undefined)?.name;
    const outcome = await guarded(call, typeof named === 'string' ? named : undefined, async () => {
      const params = ToolInvokeParams.parse(raw);
      const tool = state.tools.get(params.name);
      if (!tool) throw new ResponseError(ProtocolErrorCodes.ToolNotFound, `no tool named "${params.name}" in this plugin`, { tool: params.name });
      const checked = isZodSchema(tool.inputSchema) ? tool.inputSchema.safeParse(params.arguments) : undefined;
      if (checked && !checked.success) return invalidArgumentsResult(params.name, checked.error);
      const args = checked ? checked.data : params.arguments;
      return asResult(await tool.handler(args, new ToolCallContext(conn, state, call, params.context, params.progressToken)));
    });
    call.dispose();
    return outcome;
  });
}

export function registerHookHandlers(conn: MessageConnection, state: PluginState, plugin: PluginDefinition): void {
  // Read at call time: `activate` may have replaced the hooks.
  const hooks = () => state.hooks ?? plugin.hooks;
  conn.onRequest(HookBeforeToolCall.type, async (raw, token) => {
    if (!state.ready) return notReady();
    const before = hooks()?.before_tool_call;
    const call = signalFor(token, state.shutdown.signal);
    const out = await guarded(call, undefined, async () => (before ? ((await before.handler(BeforeToolCallEvent.parse(raw), baseContext(call, state.settings, state.log))) ?? null) : null));
    call.dispose();
    return out;
  });
  conn.onRequest(HookAfterToolCall.type, async (raw, token) => {
    if (!state.ready) return notReady();
    const after = hooks()?.after_tool_call;
    const call = signalFor(token, state.shutdown.signal);
    const out = await guarded(call, undefined, async () => {
      if (after) await after.handler(AfterToolCallEvent.parse(raw), baseContext(call, state.settings, state.log));
      return null;
    });
    call.dispose();
    return out;
  });
}

export function registerSandboxHandlers(conn: MessageConnection, state: PluginState, plugin: PluginDefinition): void {
  const backends = new Map((plugin.sandboxBackends ?? []).map((b) => [b.id, b]));
  const sessions = new Map<string, SandboxBackendDefinition>();
  if (backends.size === 0) return;
  const ctxFor = (token: Parameters<typeof signalFor>[0]) => {
    const call = signalFor(token, state.shutdown.signal);
    return { call, ctx: baseContext(call, state.settings, state.log) };
  };
  const direct = directChannel(conn, sessions, ctxFor, state.shutdown.signal);
  conn.onRequest(SandboxPrepare.type, async (raw, token) => {
    const { call, ctx } = ctxFor(token);
    const out = await guarded(call, undefined, async () => {
      const { direct: channel, ...params } = SandboxPrepareParams.parse(raw);
      const backend = backends.get(params.backendId);
      if (!backend) throw new ResponseError(ProtocolErrorCodes.CapabilityMissing, `no sandbox backend "${params.backendId}" in this plugin`);
      // Grants of an earlier prepare die with it, whether or not this one succeeds.
      direct.forget(params.session);
      const result = await backend.prepare(params, ctx);
      sessions.set(params.session, backend);
      return channel && (await direct.offer(params.session, channel)) ? { ...result, direct: true } : result;
    });
    call.dispose();
    return out;
  });
  conn.onRequest(SandboxRelease.type, async (raw, token) => {
    const { call, ctx } = ctxFor(token);
    const out = await guarded(call, undefined, async () => {
      const { session } = SandboxRelease.params.parse(raw);
      direct.forget(session);
      await sessions.get(session)?.release?.(session, ctx);
      sessions.delete(session);
      return null;
    });
    call.dispose();
    return out;
  });
  for (const [op, descriptor] of Object.entries(SANDBOX_ADMIN_METHODS)) {
    conn.onRequest(descriptor.type as any, async (raw: unknown, token: Parameters<typeof signalFor>[0]) => {
      const { call, ctx } = ctxFor(token);
      const out = await guarded(call, undefined, async () => {
        const params = descriptor.params.parse(raw);
        const backend = backends.get(params.backendId);
        const handler = backend?.admin?.[op as keyof typeof SANDBOX_ADMIN_METHODS] as ((p: unknown, c: HandlerContext) => unknown) | undefined;
        if (!handler) throw new ResponseError(ProtocolErrorCodes.CapabilityMissing, `no sandbox backend "${params.backendId}" serving ${descriptor.method} in this plugin`);
        return (await handler(params, ctx)) ?? null;
      });
      call.dispose();
      return out;
    });
  }
  const operations = [
    ...(Object.keys(SANDBOX_METHODS) as WorkspaceOperation[]).map((op) => [op, SANDBOX_METHODS[op], WORKSPACE_OPERATIONS[op].params] as const),
    ...(Object.keys(SANDBOX_RUN_METHODS) as ExecRunOperation[]).map((op) => [op, SANDBOX_RUN_METHODS[op], EXEC_RUN_OPERATIONS[op].params] as const),
  ];
  for (const [op, descriptor, paramsSchema] of operations) {
    conn.onRequest(descriptor.type as any, async (raw: { session?: string; progressToken?: string | number }, token: Parameters<typeof signalFor>[0]) => {
      const { call, ctx } = ctxFor(token);
      const out = await guarded(call, undefined, async () => {
        const backend = sessions.get(String(raw?.session));
        if (!backend) throw new ResponseError(ProtocolErrorCodes.InvalidParams, `session "${raw?.session}" was not prepared`);
        const handler = backend.operations[op] as ((p: unknown, c: SandboxOperationContext) => unknown) | undefined;
        if (!handler) throw new ResponseError(ProtocolErrorCodes.CapabilityMissing, `backend "${backend.id}" does not serve ${op}`);
        const params = (paramsSchema as { parse(v: unknown): object }).parse(raw);
        const progressToken = op === 'exec' ? raw.progressToken : undefined;
        const progress = progressToken === undefined ? undefined : (value: ExecProgressValue) => void conn.sendProgress(ExecProgress.type, progressToken, value).catch(() => undefined);
        return (await handler({ ...params, session: raw.session }, progress ? Object.assign(ctx, { progress }) : ctx)) ?? null;
      });
      call.dispose();
      return out;
    });
  }
}

export function registerTaskLedgerHandlers(conn: MessageConnection, state: PluginState, plugin: PluginDefinition): void {
  const ledger = plugin.taskLedger;
  if (!ledger) return;
  const serve = <P>(descriptor: { type: unknown; params: { parse(raw: unknown): P } }, run: (params: P, ctx: HandlerContext) => unknown): void => {
    conn.onRequest(descriptor.type as any, async (raw: unknown, token: Parameters<typeof signalFor>[0]) => {
      if (!state.ready) return notReady();
      const call = signalFor(token, state.shutdown.signal);
      const out = await guarded(call, undefined, async () => run(descriptor.params.parse(raw), baseContext(call, state.settings, state.log)));
      call.dispose();
      return out;
    });
  };
  serve(TasksRecord, (params, ctx) => ledger.record(params.task, ctx));
  serve(TasksQuery, (params, ctx) => ledger.query(params, ctx));
  serve(TasksRequestCancel, (params, ctx) => ledger.requestCancel(params.id, ctx));
}

export function registerTaskCancelHandler(conn: MessageConnection, state: PluginState, plugin: PluginDefinition): void {
  const cancelTask = plugin.cancelTask;
  conn.onRequest(TasksCancel.type, async (raw, token) => {
    if (!state.ready) return notReady();
    const call = signalFor(token, state.shutdown.signal);
    const out = await guarded(call, undefined, async () => ({ stopped: cancelTask ? (await cancelTask(TasksCancel.params.parse(raw).localId, baseContext(call, state.settings, state.log))) === true : false }));
    call.dispose();
    return out;
  });
}

export function registerSkillHandlers(conn: MessageConnection, state: PluginState, plugin: PluginDefinition): void {
  const sources = new Map((plugin.skillSources ?? []).map((s) => [s.label, s]));
  if (sources.size === 0) return;
  conn.onRequest(SkillsList.type, async (raw, token) => {
    if (!state.ready) return notReady();
    const call = signalFor(token, state.shutdown.signal);
    const out = await guarded(call, undefined, async () => {
      const params = SkillsListParams.parse(raw);
      const source = sources.get(params.label);
      if (!source) throw new ResponseError(ProtocolErrorCodes.InvalidParams, `no skill source "${params.label}" in this plugin`);
      return SkillsListResult.parse(await source.list(baseContext(call, state.settings, state.log), params));
    });
    call.dispose();
    return out;
  });
  for (const source of sources.values()) {
    source.watch?.((change) => {
      if (!state.ready) return;
      void conn.sendNotification(SkillsListChanged.type, { label: source.label, ...change }).catch(() => undefined);
    });
  }
}
