/**
 * The CLI's single door into the kernel. Commands depend on the narrow `KernelApi` below rather
 * than importing the kernel module themselves, so they can be exercised with in-memory fakes and
 * so `pincer --help` never pays for loading the kernel.
 *
 * The types mirror the kernel's public contract (`kernel/index.ts`).
 */

export interface ConfigIssue {
  path: string;
  message: string;
}

/** Opaque to the CLI: only the kernel reads a config. */
export type PincerConfig = Record<string, unknown>;

export interface RunContext {
  agentId?: string;
  sessionKey?: string;
  sender?: { id?: string; username?: string; e164?: string; name?: string };
  groupId?: string;
  provider?: string;
  model?: string;
  trigger?: 'user' | 'cron' | 'background' | 'memory';
  subagentDepth?: number;
  inheritedAllowlist?: string[];
  toolsAllow?: string[];
}

export type ToolContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'json'; json: unknown };

export interface ToolResult {
  content: ToolContent[];
  details?: Record<string, unknown>;
  isError?: boolean;
}

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: object;
  pluginId?: string;
}

export interface PolicyRemoval {
  tool: string;
  layer: string;
  label: string;
  ruleKind: 'allow' | 'deny';
  matchedRules: string[];
  configKey?: string;
}

export type ToolExplanation =
  | { tool: string; present: true; layersPassed: string[] }
  | { tool: string; present: false; removal: PolicyRemoval }
  | { tool: string; present: false; unknown: true };

export interface ToolSet {
  tools: ToolDefinition[];
  execute(name: string, params: unknown, opts?: { signal?: AbortSignal; toolCallId?: string }): Promise<ToolResult>;
  removed: PolicyRemoval[];
  explain(name: string): ToolExplanation;
  warnings: string[];
  effectiveAllowlist: string[];
  sandbox: { mode: 'off' | 'non-main' | 'all'; sandboxed: boolean; backend?: string };
}

export type PluginState = 'lazy' | 'starting' | 'ready' | 'restarting' | 'stopping' | 'failed' | 'stopped';

/** A plugin's last error: a message, or the host's structured record. */
export type PluginLastError = string | { code?: string; message: string; at?: string };

export interface PluginStatus {
  id: string;
  state: PluginState;
  version?: string;
  /** The host's name for `version`; the CLI reads either. */
  pluginVersion?: string;
  protocolVersion?: string | number;
  restarts: number;
  lastError?: PluginLastError;
  tools: number;
  pid?: number;
}

export interface Kernel {
  start(): Promise<void>;
  stop(): Promise<void>;
  assembleTools(run: RunContext): ToolSet;
  plugins(): PluginStatus[];
  on(event: 'toolsChanged', listener: () => void): () => void;
}

/** The kernel's public functions the CLI uses. */
export interface KernelApi {
  loadConfig(path: string | undefined, opts: { cwd: string }): Promise<PincerConfig>;
  defaultConfig(opts: { cwd: string }): PincerConfig;
  checkConfig(raw: unknown): { ok: boolean; issues: ConfigIssue[] };
  createKernel(config: PincerConfig, opts?: { logger?: unknown }): Kernel;
}

/** Loads the real kernel. A variable specifier keeps tsc from resolving it before it exists. */
export async function loadKernelApi(): Promise<KernelApi> {
  const specifier = '../kernel/index.js';
  return (await import(specifier)) as KernelApi;
}
