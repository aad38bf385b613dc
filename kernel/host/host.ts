import type { z } from 'zod';
import {
  BeforeToolCallResult,
  HookAfterToolCall,
  HookBeforeToolCall,
  SkillsList,
  SkillsListResult,
  type SkillsListChangedParams,
  type SkillsListParams,
  ToolInvoke,
  ToolInvokeResult,
  type AfterToolCallEvent,
  type BeforeToolCallEvent,
  type HookName,
  type PeerInfo,
  type RequestDescriptor,
  type ToolContribution,
  type ToolProgressValue,
  type WorkspaceChannel,
} from '../../protocol/index.js';
import { CANCEL_GRACE_MS, type DeadlineOptions } from './call.js';
import { PluginConfigSchema, RestartPolicySchema, type PluginConfigInput, type RestartPolicy } from './config.js';
import type { DirectFailureHandler, WorkspaceHandler } from './connection.js';
import { DirectChannelDirs } from './direct-dirs.js';
import type { HostServices } from './host-services.js';
import { defaultStateDir } from './data-dir.js';
import { hookDeadline, requestDeadline, toolDeadline } from './deadlines.js';
import type { ConfinementDenial, HostDecisionSink } from './decisions.js';
import { KernelError, describeIssues, isKernelError } from './errors.js';
import { defaultHostLogger, type HostLogger } from './logger.js';
import { ManagedPlugin } from './managed-plugin.js';
import { capToolResult, jsonValueProblem } from './result-cap.js';
import type { PluginContributions, PluginStatus, RequiredPluginsHealth } from './status.js';
import { ToolOwners, designateCoreTools } from './tool-owners.js';
import { Confiner, type ConfinerOptions } from '../confine/confiner.js';

export interface PluginHostOptions {
  plugins: readonly PluginConfigInput[];
  kernel?: PeerInfo;
  logger?: HostLogger;
  restart?: Partial<RestartPolicy>;
  /** Env var names plugins inherit; defaults to DEFAULT_INHERITED_ENV_VARS. */
  inheritEnv?: readonly string[];
  /**
   * Directories agents can write: every agent's workspace and every sandbox mount. A plugin whose
   * code lies inside one is refused (unless its entry sets `allowInsideWorkspace`).
   */
  workspaceRoots?: readonly string[];
  /** Parent of the plugins' data directories (default `$PINCER_STATE_DIR`, else `~/.pincer/state`). */
  stateDir?: string;
  /**
   * Whether two plugins can serve tools to one run (some agent enables both); default: always.
   * Plugins that never meet may serve the same tool name (see tool-owners.ts).
   */
  sharesSurface?: (a: string, b: string) => boolean;
  /** The operator's `confinement` config and the paths its placeholders stand for. */
  confinement?: Pick<ConfinerOptions, 'config' | 'workspaces' | 'skillRoots' | 'protectedPaths' | 'onDenied'>;
  /** Told about plugin state changes and confinement denials (the kernel's audit trail). */
  decisions?: HostDecisionSink;
}

export interface InvokeOptions {
  signal?: AbortSignal;
  /** The caller's idle deadline for this call (may exceed `callMs`, never `maxCallMs`). */
  timeoutMs?: number;
  onProgress?: (value: ToolProgressValue) => void;
  sessionKey?: string;
  agentId?: string;
  toolCallId?: string;
  /** Names the call to the kernel's turn services while it runs (see CallRegistry). */
  callToken?: string;
  /** The session's direct channel grant, if the router made one (carried in the call context). */
  workspaceChannel?: WorkspaceChannel;
}

export type ContributedTool = ToolContribution & { pluginId: string };

/** A plugin answer that failed its schema. */
function invalidResult(what: string, pluginId: string, error: z.ZodError): KernelError {
  return new KernelError('INVALID_RESULT', `${what}: ${describeIssues(error)}`, { pluginId, cause: error });
}

function validateConfigs(plugins: readonly PluginConfigInput[]) {
  const seen = new Set<string>();
  return plugins.map((raw, i) => {
    const parsed = PluginConfigSchema.safeParse(raw);
    const where = `plugins[${i}]${typeof raw?.id === 'string' ? ` ("${raw.id}")` : ''}`;
    if (!parsed.success) {
      const issues = parsed.error.issues.map((x) => `${x.path.join('.') || '(root)'}: ${x.message}`).join('; ');
      throw new KernelError('INVALID_CONFIG', `${where} is invalid: ${issues}`, { cause: parsed.error });
    }
    if (seen.has(parsed.data.id)) throw new KernelError('INVALID_CONFIG', `${where}: plugin id "${parsed.data.id}" is configured twice`);
    seen.add(parsed.data.id);
    return parsed.data;
  });
}

/** Creates the plugin host. Nothing is spawned until `start()` (and lazy plugins not even then). */
export function createPluginHost(options: PluginHostOptions) {
  const configs = validateConfigs(options.plugins);
  const designated = designateCoreTools(configs);
  const owners = new ToolOwners(designated, options.sharesSurface);
  const restart = RestartPolicySchema.parse(options.restart ?? {});
  const logger = options.logger ?? defaultHostLogger;
  const stateDir = options.stateDir ?? defaultStateDir();
  const workspaceRoots = options.workspaceRoots ?? [];
  const directDirs = new DirectChannelDirs(workspaceRoots, (message) => logger({ level: 'warn', source: 'kernel', message }));
  const confiner = new Confiner({
    workspaces: [],
    ...options.confinement,
    directChannel: directDirs,
    workspaceRoots,
    stateDir,
    log: (level, message) => logger({ level, source: 'kernel', message }),
    onDenied: (pluginId, what) => {
      logger({ level: 'warn', source: `plugin:${pluginId}`, message: `confinement: plugin "${pluginId}" tried to ${what}, which it did not declare; refused` });
      options.confinement?.onDenied?.(pluginId, what);
      void options.decisions?.confinementDenied?.({ pluginId, message: `tried to ${what}, which it did not declare` });
    },
  });
  /** A tool or hook answered CONFINEMENT_DENIED: reported (and durable) before the call settles. */
  const reportDenial = async (pluginId: string, error: unknown, context: Omit<ConfinementDenial, 'pluginId' | 'message'>): Promise<void> => {
    if (isKernelError(error, 'CONFINEMENT_DENIED')) await options.decisions?.confinementDenied?.({ pluginId, message: error.message, ...context });
  };
  const shared = { owners, workspaceRoots, stateDir, confiner };
  let workspaceHandler: WorkspaceHandler | undefined;
  let directFailureHandler: DirectFailureHandler | undefined;
  let services: HostServices | undefined;
  let version = 0;
  let toolsCache: { version: number; tools: ContributedTool[] } | undefined;
  const listeners = new Set<() => void>();
  const skillListeners = new Set<(pluginId: string, change: SkillsListChangedParams) => void>();
  const onSkillsChanged = (pluginId: string, change: SkillsListChangedParams): void => {
    for (const l of skillListeners) l(pluginId, change);
  };
  const onChange = (): void => {
    version += 1;
    for (const l of listeners) l();
  };
  const plugins = new Map(
    configs.map((config) => [
      config.id,
      new ManagedPlugin(config, { kernel: options.kernel ?? { name: 'pincer', version: '0.1.0' }, logger, restart, inheritEnv: options.inheritEnv, workspace: () => workspaceHandler, directFailure: () => directFailureHandler, services: () => services, onChange, onSkillsChanged, onStateChange: options.decisions?.stateChanged, ...shared }),
    ]),
  );

  const get = (pluginId: string): ManagedPlugin => {
    const p = plugins.get(pluginId);
    if (!p) throw new KernelError('PLUGIN_NOT_FOUND', `no plugin "${pluginId}" is configured`, { pluginId });
    return p;
  };
  const usable = (p: ManagedPlugin): boolean => p.state !== 'failed' && p.state !== 'stopped' && p.state !== 'stopping';
  const findTool = (p: ManagedPlugin, toolName: string) => p.contributes.tools.find((t) => t.name === toolName);

  /** A plugin not running has no live tool list yet: starting it learns it (or says why it cannot run). */
  const invokeAfterStart = async (p: ManagedPlugin, toolName: string, params: Record<string, unknown>, opts: InvokeOptions): Promise<ToolInvokeResult> => {
    const tool = findTool(p, toolName) ?? (p.state !== 'ready' ? (await p.start(), findTool(p, toolName)) : undefined);
    // Only tools the kernel accepted are callable: a refused one (a name another plugin owns...) never reaches the plugin.
    if (!tool) {
      const refused = p.tools.rejected.find((r) => r.name === toolName);
      throw new KernelError('TOOL_NOT_FOUND', refused ? `tool "${toolName}" was refused: ${refused.reason}` : `plugin "${p.id}" serves no tool "${toolName}"`, { pluginId: p.id });
    }
    return invokeFound(p, tool, params, opts);
  };

  /**
   * Runs a tool in its plugin with an idle deadline (the tool's, capped by the operator's
   * `callMs`; reset by progress) under the `maxCallMs` ceiling, cancellation and progress.
   * The result is cut to the plugin's `maxResultBytes`.
   */
  const invokeFound = (p: ManagedPlugin, tool: { name: string; timeoutMs?: number }, params: Record<string, unknown>, opts: InvokeOptions): Promise<ToolInvokeResult> => {
    const { idleMs, maxTotalMs } = toolDeadline(p.config.timeouts, tool.timeoutMs, opts.timeoutMs);
    const toolName = tool.name;
    const context = { sessionKey: opts.sessionKey, agentId: opts.agentId, toolCallId: opts.toolCallId, callToken: opts.callToken, deadline: Date.now() + idleMs, workspaceChannel: opts.workspaceChannel };
    return p
      .request(
        ToolInvoke.type,
        { name: toolName, arguments: params, context },
        { signal: opts.signal, timeoutMs: idleMs, maxTotalMs, onProgress: opts.onProgress, withProgress: true, cancelGraceMs: CANCEL_GRACE_MS },
        `tool "${toolName}"`,
      )
      .then(
        (raw) => {
          const parsed = ToolInvokeResult.safeParse(raw);
          if (!parsed.success) throw invalidResult(`tool "${toolName}" of plugin "${p.id}" returned an invalid result`, p.id, parsed.error);
          return capToolResult(parsed.data, p.config.maxResultBytes);
        },
        async (error: unknown) => {
          await reportDenial(p.id, error, { tool: toolName, agentId: opts.agentId, session: opts.sessionKey, toolCallId: opts.toolCallId });
          throw error;
        },
      );
  };

  return {
    /** Starts every non-lazy plugin; resolves when each is ready or has failed (see status()). */
    async start(): Promise<void> {
      await Promise.all([...plugins.values()].filter((p) => p.state === 'stopped').map((p) => p.start().catch(() => undefined)));
    },
    /** Stops every plugin (escalating shutdown); no process is left afterwards. */
    async stop(): Promise<void> {
      await Promise.all([...plugins.values()].map((p) => p.stop()));
      confiner.dispose();
      directDirs.dispose();
    },
    /** Starts one plugin now (e.g. warm a lazy one); rejects with the reason it could not start. */
    ensureStarted: (pluginId: string): Promise<void> => get(pluginId).start(),
    status: (): PluginStatus[] => [...plugins.values()].map((p) => p.status()),
    pluginStatus: (pluginId: string): PluginStatus => get(pluginId).status(),
    /** The pid of the plugin's running process, if any. */
    pluginPid: (pluginId: string): number | undefined => get(pluginId).pid,
    /** Bumped on every state or contribution change; assembly caches can key on it. */
    get contributionsVersion(): number {
      return version;
    },
    onDidChange(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /** `skills/listChanged` from any plugin. */
    onSkillsChanged(listener: (pluginId: string, change: SkillsListChangedParams) => void): () => void {
      skillListeners.add(listener);
      return () => skillListeners.delete(listener);
    },
    /** Cached contributions of every plugin not failed or stopped. In-memory only: no IPC. */
    contributions: (): PluginContributions[] =>
      [...plugins.values()].filter(usable).map((p) => ({ pluginId: p.id, state: p.state, required: p.config.required, contributes: p.contributes })),
    /** Every usable plugin's tools, tagged with the plugin id. Cached until the next change. */
    contributedTools(): readonly ContributedTool[] {
      if (toolsCache?.version !== version) {
        const tools = [...plugins.values()].filter(usable).flatMap((p) => p.contributes.tools.map((t) => ({ ...t, pluginId: p.id })));
        toolsCache = { version, tools };
      }
      return toolsCache.tools;
    },
    /** The plugin designated to serve a core tool name (`coreTools`, else its bundled family), if any. */
    coreToolDesignee: (name: string): string | undefined => designated.get(name),
    /** Why tools of the given plugins (default: all) were refused: one line each, for `pincer tools`. */
    toolWarnings(pluginIds?: readonly string[]): string[] {
      return [...plugins.values()].filter((p) => !pluginIds || pluginIds.includes(p.id)).flatMap((p) => p.tools.rejected.map((r) => `refused tool: ${r.reason}`));
    },
    /** Fail closed: are the required plugins among `agentPlugins` (default: all) usable? */
    requiredPluginsHealthy(agentPlugins?: readonly string[]): RequiredPluginsHealth {
      const problems: RequiredPluginsHealth['problems'] = [];
      for (const id of agentPlugins ?? []) {
        if (!plugins.has(id)) problems.push({ pluginId: id, state: 'missing', reason: `plugin "${id}" is enabled for this agent but not configured` });
      }
      for (const p of plugins.values()) {
        if (!p.config.required || (agentPlugins && !agentPlugins.includes(p.id))) continue;
        // A start after a crash is part of a crash loop, not a healthy plugin coming up.
        const restartingAfterCrash = p.state === 'starting' && p.recentCrashes > 0;
        if (p.state === 'failed' || p.state === 'stopped' || p.state === 'stopping' || p.state === 'restarting' || restartingAfterCrash) {
          problems.push({ pluginId: p.id, state: p.state, reason: p.lastError?.error.message ?? `plugin "${p.id}" is ${p.state}` });
        }
      }
      return { healthy: problems.length === 0, problems };
    },
    setWorkspaceHandler(handler: WorkspaceHandler | undefined): void {
      workspaceHandler = handler;
    },
    /** Hears a backend's report of a refusal it made on its direct channel. */
    setDirectFailureHandler(handler: DirectFailureHandler | undefined): void {
      directFailureHandler = handler;
    },
    /** Where a backend plugin serves its direct channel (a path in the kernel's private socket directory). */
    directSocketFor: (pluginId: string): string | undefined => directDirs.socketFor(pluginId),
    /** Installs the turn and task services plugins may ask for. */
    setHostServices(handler: HostServices | undefined): void {
      services = handler;
    },
    /** The plugin allowed to serve a core tool (its `coreTools` designee, else the bundled family). */
    designatedPlugin: (coreTool: string): string | undefined => designated.get(coreTool),
    /** The capabilities a running plugin declared in its handshake. */
    capabilitiesOf: (pluginId: string) => get(pluginId).tools.capabilities,
    /**
     * Sends a kernel → plugin request outside the tool, hook and sandbox families (the tasks
     * ledger's), after checking the plugin declared the method's capability.
     */
    async requestPlugin<D extends RequestDescriptor>(pluginId: string, descriptor: D, params: z.input<D['params']>, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<z.output<D['result']>> {
      const p = get(pluginId);
      const needed = descriptor.meta.capability;
      if (needed && !(p.tools.capabilities as Record<string, unknown>)[needed]) {
        throw new KernelError('CAPABILITY_NOT_SUPPORTED', `plugin "${pluginId}" did not declare capability "${needed}" needed for ${descriptor.method}`, { pluginId });
      }
      const timeoutMs = requestDeadline(p.config.timeouts, opts.timeoutMs);
      const raw = await p.request(descriptor.type as any, params as object, { signal: opts.signal, timeoutMs, maxTotalMs: timeoutMs }, descriptor.method);
      const parsed = descriptor.result.safeParse(raw);
      if (!parsed.success) throw invalidResult(`${descriptor.method} of plugin "${pluginId}" returned an invalid result`, pluginId, parsed.error);
      return parsed.data as z.output<D['result']>;
    },

    /**
     * Runs a tool in its plugin with an idle deadline (the tool's, capped by the operator's
     * `callMs`; reset by progress) under the `maxCallMs` ceiling, cancellation and progress.
     * The result is cut to the plugin's `maxResultBytes`.
     */
    invokeTool(pluginId: string, toolName: string, params: Record<string, unknown>, opts: InvokeOptions = {}): Promise<ToolInvokeResult> {
      // The running plugin's common case stays one promise chain (no async frames of its own):
      // each async layer was garbage a burst of calls paid for in collections.
      // Whatever the fast path throws (an unknown plugin, options a JavaScript caller got wrong) rejects.
      try {
        const p = get(pluginId);
        const tool = p.state === 'ready' ? findTool(p, toolName) : undefined;
        return tool ? invokeFound(p, tool, params, opts) : invokeAfterStart(p, toolName, params, opts);
      } catch (error) {
        return Promise.reject(error);
      }
    },

    /** Calls a plugin's hook. before_tool_call answers a decision (null = no opinion). */
    async callHook<H extends HookName>(
      pluginId: string,
      hook: H,
      event: H extends 'before_tool_call' ? BeforeToolCallEvent : AfterToolCallEvent,
      opts: { timeoutMs?: number; signal?: AbortSignal } = {},
    ): Promise<H extends 'before_tool_call' ? BeforeToolCallResult : null> {
      const p = get(pluginId);
      const registered = p.contributes.hooks.find((h) => h.name === hook);
      const timeoutMs = hookDeadline(p.config.timeouts, hook, registered?.timeoutMs, opts.timeoutMs);
      const type = hook === 'before_tool_call' ? HookBeforeToolCall.type : HookAfterToolCall.type;
      let raw: unknown;
      try {
        raw = await p.request(type as typeof HookBeforeToolCall.type, event as BeforeToolCallEvent, { signal: opts.signal, timeoutMs, maxTotalMs: timeoutMs }, `hook ${hook}`);
      } catch (error) {
        await reportDenial(pluginId, error, { tool: event.toolName, agentId: event.agentId, toolCallId: event.toolCallId });
        throw error;
      }
      if (hook === 'after_tool_call') return null as never;
      const what = `before_tool_call hook of plugin "${pluginId}" returned an invalid decision`;
      // Rewritten params are walked recursively downstream: refuse (fail closed) any too deep or too large.
      const problem = jsonValueProblem(raw ?? null, p.config.maxResultBytes);
      if (problem) throw new KernelError('INVALID_RESULT', `${what}: ${problem}`, { pluginId });
      const parsed = BeforeToolCallResult.safeParse(raw ?? null);
      if (!parsed.success) throw invalidResult(what, pluginId, parsed.error);
      return parsed.data as never;
    },

    /** Sends a `sandbox/*` request to a backend plugin, after checking it declared the capability. */
    async invokeBackend<D extends RequestDescriptor>(
      pluginId: string,
      descriptor: D,
      params: z.input<D['params']>,
      opts: { timeoutMs?: number; signal?: AbortSignal; onProgress?: (value: unknown) => void } = {},
    ): Promise<z.output<D['result']>> {
      const p = get(pluginId);
      if (!descriptor.method.startsWith('sandbox/')) throw new KernelError('CAPABILITY_NOT_SUPPORTED', `${descriptor.method} is not a sandbox backend method`, { pluginId });
      const needed = descriptor.meta.capability;
      const backends = p.contributes.sandboxBackends;
      if (backends.length === 0 || (needed && !backends.some((b) => b.capabilities.includes(needed)))) {
        throw new KernelError('CAPABILITY_NOT_SUPPORTED', `plugin "${pluginId}" declared no sandbox backend serving ${descriptor.method}`, { pluginId });
      }
      const timeoutMs = requestDeadline(p.config.timeouts, opts.timeoutMs);
      // With onProgress, the request carries a progress token (an exec's output so far); a report never extends this deadline.
      const onProgress = opts.onProgress as DeadlineOptions['onProgress'];
      const raw = await p.request(descriptor.type as any, params as object, { signal: opts.signal, timeoutMs, maxTotalMs: timeoutMs, cancelGraceMs: CANCEL_GRACE_MS, onProgress }, descriptor.method);
      const parsed = descriptor.result.safeParse(raw);
      if (!parsed.success) throw invalidResult(`${descriptor.method} of plugin "${pluginId}" returned an invalid result`, pluginId, parsed.error);
      return parsed.data as z.output<D['result']>;
    },

    /** Sends a `channel/*` or `node/*` request to a plugin, with a deadline and cancellation; the answer is re-checked. */
    async invokeEndpoint<D extends RequestDescriptor>(
      pluginId: string,
      descriptor: D,
      params: z.input<D['params']>,
      opts: { timeoutMs?: number; signal?: AbortSignal } = {},
    ): Promise<z.output<D['result']>> {
      const p = get(pluginId);
      if (!/^(channel|node)\//.test(descriptor.method)) throw new KernelError('CAPABILITY_NOT_SUPPORTED', `${descriptor.method} is not a channel or node method`, { pluginId });
      const timeoutMs = opts.timeoutMs ?? p.config.timeouts.callMs;
      const raw = await p.request(descriptor.type as any, params as object, { signal: opts.signal, timeoutMs, maxTotalMs: timeoutMs }, descriptor.method);
      const parsed = descriptor.result.safeParse(raw);
      if (!parsed.success) throw new KernelError('INVALID_RESULT', `${descriptor.method} of plugin "${pluginId}" returned an invalid result: ${parsed.error.message}`, { pluginId, cause: parsed.error });
      return parsed.data as z.output<D['result']>;
    },

    /** Lists the skills of one of a plugin's skill sources. */
    async listSkills(pluginId: string, params: SkillsListParams, opts: { timeoutMs?: number } = {}): Promise<SkillsListResult> {
      const p = get(pluginId);
      const timeoutMs = requestDeadline(p.config.timeouts, opts.timeoutMs);
      const raw = await p.request(SkillsList.type, params, { timeoutMs, maxTotalMs: timeoutMs }, 'skills/list');
      const parsed = SkillsListResult.safeParse(raw);
      if (!parsed.success) throw new KernelError('INVALID_RESULT', `skills/list of plugin "${pluginId}" returned an invalid result: ${parsed.error.message}`, { pluginId, cause: parsed.error });
      return parsed.data;
    },
  };
}

export type PluginHost = ReturnType<typeof createPluginHost>;
