/**
 * The CLI's single door into the kernel. Commands depend on the narrow `KernelApi` below rather
 * than importing the kernel module themselves, so they can be exercised with in-memory fakes and
 * so `pincer --help` never pays for loading the kernel.
 *
 * The types are the CLI's own narrow view of the kernel's public API; `loadKernelApi` assigns the
 * real module to `KernelApi`, so the compiler checks that the kernel satisfies this view (drift in
 * the kernel breaks the build here, not at run time), and test fakes need implement only it.
 */
import type { SandboxAdmin } from '../kernel/index.js';

export interface ConfigIssue {
  path: string;
  message: string;
}

/** Opaque to the CLI: only the kernel reads a config. */
export type PincerConfig = Record<string, unknown>;

export interface RunContext {
  runId?: string;
  agentId?: string;
  sessionKey?: string;
  sender?: { id?: string; username?: string; e164?: string; name?: string };
  groupId?: string;
  /** The message channel the session talks on. */
  channel?: string;
  provider?: string;
  model?: string;
  trigger?: 'user' | 'cron' | 'background' | 'memory';
  subagentDepth?: number;
  inheritedAllowlist?: readonly string[];
  toolsAllow?: readonly string[];
}

// Result shapes are the kernel's own; only the kernel-facing surface below is narrowed.
export type { ToolContent, ToolResult, CallResult, CallsBlocked } from '../kernel/index.js';

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: object;
  pluginId?: string;
  title?: string;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  outputSchema?: Record<string, unknown>;
}

export type { PolicyRemoval, RunToolExplanation as ToolExplanation } from '../kernel/index.js';
export type { ApprovalSurface, RunSkill, RunSkills, SkillExclusion } from '../kernel/index.js';
import type { ApprovalSurface, CallResult, CallsBlocked, PolicyRemoval, RunSkills, RunToolExplanation, ScriptedStep, TurnRunner, TurnScript } from '../kernel/index.js';
export type { ScriptedStep };

export interface ToolSet {
  readonly tools: readonly ToolDefinition[];
  execute(name: string, params: unknown, opts?: { signal?: AbortSignal; toolCallId?: string; onProgress?: (progress: unknown) => void }): Promise<CallResult>;
  readonly removed: readonly PolicyRemoval[];
  explain(name: string): RunToolExplanation;
  readonly warnings: readonly string[];
  readonly effectiveAllowlist: readonly string[];
  readonly sandbox: { mode: 'off' | 'non-main' | 'all'; sandboxed: boolean; backend?: string };
  /** The run as the kernel resolved it (default agent filled in). */
  readonly run?: { runId?: string; agentId: string; sessionKey: string };
  /** The host directory the run's tools work in. */
  readonly workspace?: string;
  /** Set while a missing or failed required plugin blocks every call of the run. */
  readonly blocked?: CallsBlocked;
  /** The run's skills (absent in fakes without skills). */
  readonly skills?: RunSkills;
}

/** `kernel.skills`, as `pincer skills` and `pincer serve` use it. */
export interface KernelSkillsView {
  refresh(run?: RunContext): Promise<void>;
  forRun(run?: RunContext): RunSkills;
  onChange(listener: () => void): () => void;
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
  /** Spawn to handshake answer of the last successful start (ms). */
  startMs?: number;
  restarts: number;
  lastError?: PluginLastError;
  tools: number;
  pid?: number;
  /** Tools the kernel refused from this plugin (bad name or schema, a name another plugin owns), with the reason. */
  rejectedTools?: Array<{ name: string; reason: string }>;
  /** How its latest start was sandboxed (docs/confinement.md); `warning` when it runs without what it declared. */
  confinement?: { mode: 'confined' | 'unconfined' | 'refused'; detail: string; warning?: string };
  /** The plugin's own parts (each MCP server of the MCP bridge) with their state and last error. */
  components?: readonly PluginComponent[];
}

export interface PluginComponent {
  kind: string;
  name: string;
  state: string;
  lastError?: string;
  lastErrorAt?: string;
  detail?: string;
}

export type { TaskRecord } from '../protocol/index.js';
import type { TaskRecord, TasksQueryParams } from '../protocol/index.js';

export interface Kernel {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** The tasks ledger (needs a plugin keeping it: `pincer tasks` adds the bundled one). */
  readonly tasks?: { list(filter?: TasksQueryParams): Promise<TaskRecord[]>; get(id: string): Promise<TaskRecord | undefined>; cancel(id: string): Promise<TaskRecord | undefined> };
  assembleTools(run: RunContext): ToolSet;
  plugins(): PluginStatus[];
  /** A sandbox backend's operator method, answered by the plugin that serves the backend. */
  sandboxAdmin: SandboxAdmin;
  on(event: 'toolsChanged', listener: () => void): () => void;
  readonly skills?: KernelSkillsView;
  /** Who runs agent turns (subagents, sends, cron runs); `--script` registers the scripted runner. */
  registerTurnRunner?(runner: TurnRunner): () => void;
}

/** The kernel's public functions the CLI uses. */
export interface KernelApi {
  loadConfig(path: string | undefined, opts: { cwd: string }): Promise<PincerConfig>;
  defaultConfig(opts: { cwd: string }): PincerConfig;
  /** The entry of a plugin this package ships but does not enable by default. */
  bundledPluginConfig(id: string, opts: { workspace: string }): { id: string; module?: string };
  checkConfig(raw: unknown): { ok: boolean; issues: ConfigIssue[] };
  /** Policy entries of a loaded config that match nothing, judged with the tools its plugins' manifests declare. */
  policyWarnings(config: PincerConfig): ConfigIssue[];
  createKernel(config: PincerConfig, opts?: { logger?: (record: LogRecordLike) => void; cwd?: string; configPath?: string; approvalSurface?: ApprovalSurface }): Kernel;
  /** A turn runner that replays tool calls instead of asking a model (`--script`). */
  createScriptedTurnRunner(script: TurnScript): TurnRunner;
  /** The steps a turn's message carries (`{"steps":[...]}`), or none. */
  stepsFromMessage(message: string): ScriptedStep[];
}

/** The record the kernel's logger receives (plugin output arrives with source `plugin:<id>`). */
export interface LogRecordLike {
  level: 'trace' | 'debug' | 'info' | 'warn' | 'error';
  source?: string;
  message: string;
  data?: unknown;
}

/** Loads the real kernel on demand; `--help` and usage errors never pay for it. */
export async function loadKernelApi(): Promise<KernelApi> {
  const kernel = await import('../kernel/index.js');
  // Typed assignment, not a cast: this is where the kernel's API is checked against the CLI's view.
  const api: KernelApi = {
    loadConfig: (path, opts) => kernel.loadConfig(path, opts) as Promise<PincerConfig>,
    defaultConfig: (opts) => kernel.defaultConfig(opts) as PincerConfig,
    bundledPluginConfig: (id, opts) => kernel.bundledPluginConfig(id, opts),
    checkConfig: (raw) => kernel.checkConfig(raw),
    policyWarnings: (config) => {
      const typed = config as Parameters<typeof kernel.lintPolicyConfig>[0];
      return kernel.lintPolicyConfig(typed, { pluginTools: kernel.pluginToolsFromManifests(typed) });
    },
    createKernel: (config, opts) => kernel.createKernel(config as Parameters<typeof kernel.createKernel>[0], opts),
    createScriptedTurnRunner: (script) => kernel.createScriptedTurnRunner(script),
    stepsFromMessage: (message) => kernel.stepsFromMessage(message),
  };
  return api;
}
