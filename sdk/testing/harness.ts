import { CancellationTokenSource, ResponseError, createMessageConnection, type MessageConnection } from 'vscode-jsonrpc/node';
import {
  Handshake,
  HookAfterToolCall,
  HookBeforeToolCall,
  Log,
  ProtocolErrorCodes,
  SUPPORTED_PROTOCOL_VERSIONS,
  Shutdown,
  SkillsList,
  SkillsListChanged,
  ToolInvoke,
  ToolProgress,
  ToolsListChanged,
  WORKSPACE_METHODS,
  WORKSPACE_RUN_METHODS,
  createLinkedPair,
  type AfterToolCallEvent,
  type BeforeToolCallEvent,
  type BeforeToolCallResult,
  type HandshakeResult,
  type LogParams,
  type SkillsListChangedParams,
  type SkillsListParams,
  type SkillsListResult,
  type ToolContribution,
  type ToolInvokeResult,
  type ToolProgressValue,
  type WorkspaceOperation,
  type WorkspaceService,
} from '../../protocol/index.js';
import { PluginError, WorkspaceError } from '../plugin/errors.js';
import type { PluginDefinition } from '../plugin/types.js';
import { bindPlugin } from '../serve/bind.js';
import { createMemoryWorkspace } from './memory-workspace.js';

/** Drives a plugin in memory, through the real protocol and framing, without a kernel. @since 1 */
export interface PluginTestHarness {
  /** The plugin's handshake answer. */
  readonly handshake: HandshakeResult;
  /** `$/log` records the plugin sent. */
  readonly logs: LogParams[];
  /** Every tool list the plugin announced with `tools/listChanged`. */
  readonly toolListChanges: ToolContribution[][];
  /** The workspace the plugin's tools see. */
  readonly workspace: WorkspaceService;
  callTool(name: string, args?: Record<string, unknown>, options?: CallOptions): Promise<ToolInvokeResult>;
  beforeToolCall(event: BeforeToolCallEvent): Promise<BeforeToolCallResult>;
  afterToolCall(event: AfterToolCallEvent): Promise<void>;
  listSkills(label: string, params?: Omit<SkillsListParams, 'label'>): Promise<SkillsListResult>;
  /** Every `skills/listChanged` the plugin sent. */
  readonly skillsChanges: SkillsListChangedParams[];
  /** The raw kernel-side connection, for anything else. */
  readonly connection: MessageConnection;
  /** Sends `$/shutdown` and closes the channel. */
  close(): Promise<void>;
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (value: ToolProgressValue) => void;
  sessionKey?: string;
}

export interface HarnessOptions {
  settings?: Record<string, unknown>;
  /** Defaults to an empty in-memory workspace. */
  workspace?: WorkspaceService;
  /** Versions the fake kernel offers (to test a mismatch). */
  protocolVersions?: number[];
}

let nextToken = 0;

/** Starts `plugin` on an in-memory channel and completes the handshake. @since 1 */
export async function createPluginTestHarness(plugin: PluginDefinition, options: HarnessOptions = {}): Promise<PluginTestHarness> {
  const [kernelSide, pluginSide] = createLinkedPair();
  const runtime = bindPlugin(plugin, pluginSide);
  const conn = createMessageConnection(kernelSide.reader, kernelSide.writer);
  const workspace = options.workspace ?? createMemoryWorkspace();
  const logs: LogParams[] = [];
  const toolListChanges: ToolContribution[][] = [];
  conn.onNotification(Log.type, (p) => void logs.push(p as LogParams));
  conn.onNotification(ToolsListChanged.type, (p) => void toolListChanges.push(p.tools));
  const skillsChanges: SkillsListChangedParams[] = [];
  conn.onNotification(SkillsListChanged.type, (p) => void skillsChanges.push(p));
  for (const [op, d] of Object.entries(WORKSPACE_METHODS) as [WorkspaceOperation, (typeof WORKSPACE_METHODS)[WorkspaceOperation]][]) {
    conn.onRequest(d.type as any, async (p: any) => {
      try {
        const w = workspace as any;
        const args = op === 'rename' ? [p.from, p.to] : op === 'exec' ? [p.command, p.options] : op === 'write' ? [p.path, p.content, p.options] : [p.path, p.options];
        return (await w[op](...args)) ?? null;
      } catch (error) {
        if (error instanceof WorkspaceError) return new ResponseError(ProtocolErrorCodes.WorkspaceError, error.message, error.data);
        if (error instanceof PluginError) return new ResponseError(error.code, error.message, error.data);
        return new ResponseError(ProtocolErrorCodes.WorkspaceError, String((error as Error)?.message ?? error), { code: 'IO_ERROR' });
      }
    });
  }
  // Detached runs: served by the workspace's own `runs`, when it has them.
  const runCalls = {
    runStart: (p: any) => workspace.runs?.start(p.command, p.options),
    runList: () => workspace.runs?.list(),
    runRead: (p: any) => workspace.runs?.read(p.runId, p.options),
    runKill: (p: any) => workspace.runs?.kill(p.runId),
  };
  for (const [op, d] of Object.entries(WORKSPACE_RUN_METHODS)) {
    conn.onRequest(d.type as any, async (p: any) => {
      if (!workspace.runs) return new ResponseError(ProtocolErrorCodes.CapabilityMissing, 'this workspace has no detached runs');
      return (await runCalls[op as keyof typeof runCalls](p)) ?? null;
    });
  }
  conn.listen();
  const handshake = await conn.sendRequest(Handshake.type, {
    protocolVersions: options.protocolVersions ?? [...SUPPORTED_PROTOCOL_VERSIONS],
    kernel: { name: 'pincer-test-harness', version: '0.0.0' },
    capabilities: { workspace: Object.keys(WORKSPACE_METHODS), progress: true, log: true },
    settings: options.settings ?? {},
  });

  return {
    handshake,
    logs,
    toolListChanges,
    skillsChanges,
    workspace,
    connection: conn,
    async callTool(name, args = {}, callOptions = {}) {
      const source = new CancellationTokenSource();
      callOptions.signal?.addEventListener('abort', () => source.cancel(), { once: true });
      const progressToken = `harness-${++nextToken}`;
      const sub = callOptions.onProgress ? conn.onProgress(ToolProgress.type, progressToken, callOptions.onProgress) : undefined;
      try {
        const params = { name, arguments: args, progressToken: sub ? progressToken : undefined, context: { sessionKey: callOptions.sessionKey } };
        return await conn.sendRequest(ToolInvoke.type, params, source.token);
      } finally {
        sub?.dispose();
        source.dispose();
      }
    },
    beforeToolCall: (event) => conn.sendRequest(HookBeforeToolCall.type, event),
    afterToolCall: async (event) => void (await conn.sendRequest(HookAfterToolCall.type, event)),
    listSkills: (label, params = {}) => conn.sendRequest(SkillsList.type, { ...params, label }),
    async close() {
      await conn.sendRequest(Shutdown.type, {}).catch(() => undefined);
      kernelSide.close();
      conn.dispose();
      runtime.dispose();
    },
  };
}
