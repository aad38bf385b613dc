import type { PluginConfinementInput } from '../../protocol/v1/confinement.js';
import type { z } from 'zod';
import type {
  SANDBOX_ADMIN_METHODS,
  SandboxAdminOperation,
  SandboxAdminResult,
  AfterToolCallEvent,
  BeforeToolCallEvent,
  BeforeToolCallResult,
  CallContext,
  EXEC_RUN_OPERATIONS,
  ExecProgressValue,
  ExecRunOperation,
  ChannelActionParams,
  ChannelActionResult,
  LogLevel,
  NodeInvokeParams,
  SandboxPrepareParams,
  SandboxPrepareResult,
  SkillsListParams,
  SkillsListResult,
  TaskRecord,
  TaskState,
  TasksQueryParams,
  ToolContribution,
  ToolInvokeResult,
  ToolProgressValue,
  WORKSPACE_OPERATIONS,
  WorkspaceOperation,
  WorkspaceService,
} from '../../protocol/index.js';
import type { CallKernelClient, KernelClient } from '../serve/kernel-client.js';

/** Structured logging to the kernel (`$/log`), shown under `plugin:<id>`. @since 1 */
export type PluginLogger = Record<LogLevel, (message: string, data?: unknown) => void>;

/** Services every handler receives. @since 1 */
export interface HandlerContext {
  /** Aborted when the kernel cancels the call or the plugin shuts down. */
  signal: AbortSignal;
  /** Operator settings for this plugin, from the handshake. */
  settings: Record<string, unknown>;
  log: PluginLogger;
}

/** What a tool handler receives beside its params. @since 1 */
export interface ToolContext extends HandlerContext {
  /** Reports progress; a no-op unless the kernel asked for progress. Extends the call's deadline. */
  progress(value: ToolProgressValue): void;
  /** The calling session's workspace, served by the kernel through the session's sandbox. */
  workspace: WorkspaceService;
  /** Who is calling (session, agent, tool call id). */
  call: CallContext;
  /** The kernel's turn and session services for this call (granted to designated plugins only). */
  kernel: CallKernelClient;
  /**
   * Reports detached work this call started (a background command) to the tasks ledger, under
   * this plugin and the call's session; usable after the call returns. Define `cancelTask` to
   * let the ledger stop it.
   */
  reportTask(task: { localId: string; kind: string; state: TaskState; title: string; progress?: string; error?: string }): void;
}

/** Tool result: a full result, or a string (one text block). */
export type ToolReturn = ToolInvokeResult | string;

/**
 * A tool. `inputSchema` is either a zod schema (params are validated and typed) or a
 * JSON Schema object (params arrive as sent).
 * @since 1
 */
export interface ToolDefinition<S extends z.ZodType = z.ZodType> extends Omit<ToolContribution, 'inputSchema' | 'family'> {
  family?: string;
  inputSchema: S | Record<string, unknown>;
  handler(params: z.output<S>, ctx: ToolContext): ToolReturn | Promise<ToolReturn>;
}

/** One hook handler with its registration. @since 1 */
export interface HookDefinition<E, R> {
  priority?: number;
  tools?: string[];
  timeoutMs?: number;
  handler(event: E, ctx: HandlerContext): R | Promise<R>;
}

/** @since 1 */
export interface PluginHooks {
  before_tool_call?: HookDefinition<BeforeToolCallEvent, BeforeToolCallResult | undefined>;
  after_tool_call?: HookDefinition<AfterToolCallEvent, void>;
}

type OpParams<K extends WorkspaceOperation> = z.output<(typeof WORKSPACE_OPERATIONS)[K]['params']>;
type OpResult<K extends WorkspaceOperation> = z.input<(typeof WORKSPACE_OPERATIONS)[K]['result']>;

type RunParams<K extends ExecRunOperation> = z.output<(typeof EXEC_RUN_OPERATIONS)[K]['params']>;
type RunResult<K extends ExecRunOperation> = z.input<(typeof EXEC_RUN_OPERATIONS)[K]['result']>;

/** Handlers of a sandbox backend; its capabilities are the operations it defines (detached runs included). @since 1 */
/** What a backend's operation handler receives. @since 1 */
export interface SandboxOperationContext extends HandlerContext {
  /**
   * `exec` only, present when the kernel sent a progress token: reports the command's output so
   * far. Send a few reports a second at most, each with only new output (`execReportingOutput`
   * does both).
   */
  progress?: (value: ExecProgressValue) => void;
}

export type SandboxOperations = {
  [K in WorkspaceOperation]?: (params: OpParams<K> & { session: string }, ctx: SandboxOperationContext) => Promise<OpResult<K>> | OpResult<K>;
} & {
  [K in ExecRunOperation]?: (params: RunParams<K> & { session: string }, ctx: HandlerContext) => Promise<RunResult<K>> | RunResult<K>;
};

type AdminParams<K extends SandboxAdminOperation> = z.output<(typeof SANDBOX_ADMIN_METHODS)[K]['params']>;

/** Operator methods a backend may serve (`pincer sandbox list | recreate | prune | check | image build`); each one defined is declared. @since 1 */
export type SandboxAdminHandlers = {
  [K in SandboxAdminOperation]?: (params: AdminParams<K>, ctx: HandlerContext) => Promise<SandboxAdminResult<K>> | SandboxAdminResult<K>;
};

/** @since 1 */
export interface SandboxBackendDefinition {
  id: string;
  admin?: SandboxAdminHandlers;
  prepare(params: SandboxPrepareParams, ctx: HandlerContext): Promise<SandboxPrepareResult> | SandboxPrepareResult;
  release?(session: string, ctx: HandlerContext): Promise<void> | void;
  operations: SandboxOperations;
}

/** What a skill source sends when it changed (`skills/listChanged`). @since 1 */
export interface SkillSourceChange {
  version: string;
  /** The workspace whose list changed, for a `workspace`-scoped source. */
  workspaceDir?: string;
}

/** @since 1 */
export interface SkillSourceDefinition {
  label: string;
  /** Precedence: on a name collision the higher rank wins (extra dirs use 100). */
  rank: number;
  /** `workspace`: the list depends on `params.workspaceDir` (default `global`). */
  scope?: 'global' | 'workspace';
  list(ctx: HandlerContext, params: SkillsListParams): Promise<z.input<typeof SkillsListResult>> | z.input<typeof SkillsListResult>;
  /** Called once the plugin is bound; call `notify` whenever the source's version changes. */
  watch?(notify: (change: SkillSourceChange) => void): void;
}

/** Kernel → plugin requests of the tasks ledger; declaring it sets the `taskLedger` capability. @since 1 */
export interface TaskLedgerDefinition {
  record(task: TaskRecord, ctx: HandlerContext): TaskRecord | Promise<TaskRecord>;
  query(params: z.output<typeof TasksQueryParams>, ctx: HandlerContext): { tasks: TaskRecord[] } | Promise<{ tasks: TaskRecord[] }>;
  requestCancel(id: string, ctx: HandlerContext): { task?: TaskRecord } | Promise<{ task?: TaskRecord }>;
}

/** What `activate` may answer. @since 1 */
export interface ActivateResult {
  /** Replaces the plugin's `tools` (served and announced in the handshake). */
  tools?: ToolDefinition<any>[];
  /** Replaces the plugin's `hooks` (served and announced in the handshake). */
  hooks?: PluginHooks;
}

/** One message action to perform, as the kernel sent it (checked against the channel's declared actions). @since 1 */
export type ChannelRequest = z.output<typeof ChannelActionParams>;

/**
 * A message channel: its id, the subset of the kernel's closed action vocabulary it supports,
 * and the handler that performs one action. Answer `status: 'unknown'` whenever the action may
 * have reached its destination; `failed` only when it certainly did not.
 * @since 1
 */
export interface ChannelDefinition {
  id: string;
  actions: string[];
  description?: string;
  handle(request: ChannelRequest, ctx: HandlerContext): Promise<ChannelActionResult> | ChannelActionResult;
}

/** One node command: the params the model sent, the calling session, and a signal. @since 1 */
export type NodeCommandHandler = (params: Record<string, unknown>, ctx: HandlerContext & { request: z.output<typeof NodeInvokeParams> }) => unknown;

/** A paired device: its id and the commands it runs (the keys of `commands`). @since 1 */
export interface NodeDefinition {
  id: string;
  name?: string;
  platform?: string;
  commands: Record<string, NodeCommandHandler>;
}

/** Everything a plugin declares. @since 1 */
export interface PluginDefinition {
  id: string;
  version: string;
  /** Default family for tools that do not name one (defaults to the plugin id). */
  family?: string;
  tools?: ToolDefinition<any>[];
  hooks?: PluginHooks;
  sandboxBackends?: SandboxBackendDefinition[];
  skillSources?: SkillSourceDefinition[];
  /** The tasks ledger, if this plugin keeps it. */
  taskLedger?: TaskLedgerDefinition;
  /** Stops a task this plugin reported (`ctx.reportTask`); answers whether it was still running. */
  cancelTask?(localId: string, ctx: HandlerContext): boolean | Promise<boolean>;
  /** Message channels (declared at the handshake; `activate` may still fill this list from settings). */
  channels?: ChannelDefinition[];
  /** Paired devices (declared at the handshake; `activate` may still fill this list from settings). */
  nodes?: NodeDefinition[];
  /**
   * What the plugin needs from the host when the kernel confines it (paths, network, spawning,
   * environment names); written into its static manifest, which the kernel reads before it
   * starts the process. Without it the plugin runs unconfined.
   */
  confinement?: PluginConfinementInput;
  /**
   * Runs during the handshake, before the plugin answers (open resources here). May return the
   * tools to answer with instead of `tools`, for plugins whose tools depend on their settings.
   */
  activate?(ctx: { settings: Record<string, unknown>; log: PluginLogger; kernel: KernelClient }): void | ActivateResult | Promise<void | ActivateResult>;
  /** Runs on `$/shutdown` before the plugin answers. */
  deactivate?(): void | Promise<void>;
}
