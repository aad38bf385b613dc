/**
 * An in-memory kernel for CLI and MCP-server tests: a fixed catalog, a tiny allow/deny policy per
 * agent, and recorded calls. It implements the kernel's public contract only, so the CLI's
 * formatting and protocol mapping are tested without plugins or child processes.
 */
import type { CallResult, Kernel, KernelApi, PluginStatus, PolicyRemoval, RunContext, ToolDefinition, ToolResult, ToolSet } from '../../../cli/kernel.js';

/** A plain tool result as the kernel would classify it: `blocked` when its details say so, else tool error or ok. */
export function asCallResult(name: string, result: ToolResult): CallResult {
  const base = { content: result.content, details: result.details, toolName: name, toolCallId: 'fake' };
  if (!result.isError) return { ...base, outcome: 'ok', isError: false, retryable: false };
  const outcome = result.details?.status === 'blocked' ? 'blocked' : 'tool_error';
  const code = outcome === 'blocked' ? 'HOOK_BLOCKED' : 'TOOL_ERROR';
  return { ...base, outcome, isError: true, code, retryable: false, error: { code, message: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('') } };
}

export interface FakeKernelOptions {
  tools?: ToolDefinition[];
  /** Per agent id: tools denied at the agent layer. */
  agentDeny?: Record<string, string[]>;
  plugins?: PluginStatus[];
  execute?: (name: string, params: unknown) => Promise<ToolResult> | ToolResult;
}

export const FAKE_TOOLS: ToolDefinition[] = [
  { name: 'read', description: 'Read a file from the workspace', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }, pluginId: 'fs' },
  { name: 'write', description: 'Write a file\nsecond line', inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } } }, pluginId: 'fs' },
  { name: 'exec', description: 'Run a shell command', inputSchema: { type: 'object', properties: { command: { type: 'string' } } }, pluginId: 'shell' },
];

export class FakeKernel implements Kernel {
  readonly calls: { name: string; params: unknown; toolCallId?: string }[] = [];
  started = false;
  stopped = false;
  tools: ToolDefinition[];
  private listeners = new Set<() => void>();

  constructor(private options: FakeKernelOptions = {}) {
    this.tools = options.tools ?? FAKE_TOOLS;
  }

  async start() {
    this.started = true;
  }
  async stop() {
    this.stopped = true;
  }
  /** No backend plugin in the fake: every operator method is refused as the host refuses an undeclared one. */
  sandboxAdmin: Kernel['sandboxAdmin'] = async (op) => {
    throw Object.assign(new Error(`the fake kernel serves no sandbox/admin/${op}`), { code: 'CAPABILITY_NOT_SUPPORTED' });
  };
  plugins(): PluginStatus[] {
    return this.options.plugins ?? [{ id: 'fs', state: 'ready', version: '0.1.0', protocolVersion: '1.0', restarts: 0, tools: 2 }];
  }
  on(_event: 'toolsChanged', listener: () => void) {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  /** Live toolsChanged subscriptions: every MCP session holds one until it closes. */
  get listenerCount(): number {
    return this.listeners.size;
  }
  emitToolsChanged() {
    for (const l of this.listeners) l();
  }

  assembleTools(run: RunContext): ToolSet {
    const deny = this.options.agentDeny?.[run.agentId ?? 'main'] ?? [];
    const removed: PolicyRemoval[] = this.tools
      .filter((t) => deny.includes(t.name))
      .map((t) => ({ tool: t.name, layer: 'agent', label: `agents.${run.agentId ?? 'main'}.tools.deny`, ruleKind: 'deny', matchedRules: [t.name], configKey: `agents.${run.agentId ?? 'main'}.tools.deny` }));
    const tools = this.tools.filter((t) => !deny.includes(t.name));
    const execute = this.options.execute;
    return {
      tools,
      removed,
      warnings: deny.length ? ['profile entry "apply_patch" is unavailable'] : [],
      effectiveAllowlist: tools.map((t) => t.name),
      sandbox: { mode: 'off', sandboxed: false },
      explain: (name) => {
        if (tools.some((t) => t.name === name)) return { tool: name, present: true, layersPassed: ['profile', 'agent'] };
        const removal = removed.find((r) => r.tool === name);
        return removal ? { tool: name, present: false, removal } : { tool: name, present: false, unknown: true };
      },
      execute: async (name, params, opts) => {
        // Like the kernel: a removed tool is denied without reaching the tool.
        const removal = removed.find((r) => r.tool === name);
        if (removal) {
          const error = { code: 'TOOL_REMOVED', message: `Tool "${name}" is not available in this run: the agent policy layer denies it (${removal.configKey}).` };
          return { outcome: 'denied', isError: true, code: error.code, retryable: false, error, content: [{ type: 'text', text: error.message }], details: { removal, error }, toolName: name, toolCallId: 'fake' };
        }
        this.calls.push({ name, params, toolCallId: opts?.toolCallId });
        if (execute) return asCallResult(name, await execute(name, params));
        return asCallResult(name, { content: [{ type: 'text', text: `ran ${name}` }, { type: 'json', json: { params } }] });
      },
    };
  }
}

export function fakeApi(kernel: FakeKernel, overrides: Partial<KernelApi> = {}): KernelApi {
  return {
    loadConfig: async () => ({}),
    defaultConfig: () => ({}),
    bundledPluginConfig: (id) => ({ id }),
    checkConfig: () => ({ ok: true, issues: [] }),
    policyWarnings: () => [],
    createKernel: () => kernel,
    createScriptedTurnRunner: () => ({ runTurn: async () => ({}) }),
    stepsFromMessage: () => [],
    ...overrides,
  };
}
