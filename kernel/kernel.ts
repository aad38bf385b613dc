/**
 * The kernel: config in, a plugin host started, and per run a policy-governed ToolSet.
 * `assembleTools` is the hot path: pure and in memory (cached contributions, cached
 * policy plans, cached schema normalization); no IPC, no spawn, no disk.
 */
import { resolve } from 'node:path';
import { createAuditTrail, type AuditTrailView } from './audit/index.js';
import { createDiagnosticsEmitter, type DiagnosticsEmitter } from './diagnostics/index.js';
import { createToolGate, type ApprovalSurface, type CallPathLogger, type KernelTool, type RunContext, type TrustedToolPolicy } from './gate/index.js';
import { createPluginHost, defaultHostLogger, type HostLogger, type PluginHost, type PluginStatus, type RestartPolicy } from './host/index.js';
import { agentWorkspacesOf, sharesSurfaceOf, workspaceRootsOf } from './host/workspace-roots.js';
import { createPolicyEngine } from './policy/index.js';
import { isKnownCoreToolId } from '../protocol/vocabulary/index.js';
import type { PincerConfig } from './config/schema.js';
import { snapshotConfig } from './config/snapshot.js';
import { collectHooks } from './assembly/hooks.js';
import { memoryWritePathOf } from './assembly/memory-run.js';
import { createRunResolver, type ResolvedRun } from './assembly/run-shape.js';
import { callsBlocked, explainInRun, pluginAvailability } from './assembly/run-explain.js';
import { RunRegistry } from './assembly/run-registry.js';
import { SurfaceCache } from './assembly/surface.js';
import { createToolSet, type ToolSet } from './assembly/tool-set.js';
import { ToolPlans } from './assembly/tool-plan.js';
import { runToolBinder } from './assembly/run-tools.js';
import { ToolListTracker, type ToolsChangedEvent } from './assembly/tools-changed.js';
import { KernelUsageError } from './assembly/usage-error.js';
import { hasRequiredPlugin, requiredPluginsPolicy } from './assembly/required-plugins.js';
import { WorkspaceRouter } from './workspace/router.js';
import { createPluginCodePaths } from './workspace/plugin-code-paths.js';
import { createProtectedPaths } from './workspace/protected-paths.js';
import { createSandboxAdmin, type SandboxAdmin } from './workspace/sandbox-admin.js';
import { backendConflicts } from './workspace/backend-conflicts.js';
import { createSkillsService, type KernelSkills } from './skills/service.js';
import { skillRootsOf } from './skills/skill-roots.js';
import { createKernelTurns, type HostTurnRequest, type KernelTasks } from './turns/kernel-turns.js';
import type { StartedTurn } from './turns/turn-service.js';
import type { TurnRunner } from './turns/types.js';
import { withMcpBridge } from './mcp/bridge-entry.js';
import { DiscoveredTools } from './tool-search/discovered.js';
import { TOOL_SEARCH_NAME } from './tool-search/search-tool.js';
import { normalizeToolPolicyName } from '../sdk/policy/index.js';
import { FamilyTools } from './families/family-tools.js';

export interface KernelOptions {
  /** Receives host and plugin log records (plugin stdout/stderr lines tagged `plugin:<id>`). */
  logger?: HostLogger;
  /** The host's approval UI; without one, approval requests fail with a clear error. */
  approvalSurface?: ApprovalSurface;
  /** Policies of the embedding host, evaluated before plugin hooks, in order. */
  trustedPolicies?: readonly TrustedToolPolicy[];
  /** Base directory for relative workspace paths (default: process.cwd()). */
  cwd?: string;
  /** The config file `config` was loaded from: tools may never change it when it lies inside a workspace. */
  configPath?: string;
  /**
   * The supervisor's crash budget (default: failed after 3 crashes in 5 minutes, backoff from
   * 500 ms). A host that kills plugins on purpose (a chaos run) raises it to measure settling
   * rather than the budget.
   */
  restart?: Partial<RestartPolicy>;
  /**
   * Let tool plugins send their read-only workspace requests (read, stat, readDirectory)
   * straight to the session's sandbox backend, with a grant the kernel makes per plugin and
   * session (docs/protocol.md, "Direct channel"). Default true. Off, every request goes through
   * the kernel; the read bench turns it off to measure the two roads side by side.
   */
  directChannel?: boolean;
}

export interface Kernel {
  start(): Promise<void>;
  stop(): Promise<void>;
  /** A run's tools. Throws `KernelUsageError` before `start()` resolved and after `stop()`. */
  assembleTools(run?: RunContext): ToolSet;
  plugins(): PluginStatus[];
  /**
   * An operator method of a sandbox backend (`list`, `recreate`, `prune`, `check`, `imageBuild`),
   * sent to the plugin that serves it. Fails with CAPABILITY_NOT_SUPPORTED when that plugin
   * does not declare the method.
   */
  sandboxAdmin: SandboxAdmin;
  /** Fired when a plugin's contributed tools change (never for a no-op, never while stopping). */
  on(event: 'toolsChanged', listener: (change: ToolsChangedEvent) => void): () => void;
  /** Typed `tool.*` events; never raw params or output. */
  readonly diagnostics: DiagnosticsEmitter;
  /** The audit trail of the kernel's decisions (`audit` config; `pincer audit tail` reads it). */
  readonly audit: AuditTrailView;
  /** The plugin host, for hosts that need lower-level control. */
  readonly host: PluginHost;
  /** Skill sources: `refresh()` after start and before a run; a run's skills are `toolSet.skills`. */
  readonly skills: KernelSkills;
  /**
   * Registers the host's turn runner: every turn the kernel starts (sessions_spawn,
   * sessions_send, a cron job's run) is handed to it. Returns the unregister function.
   */
  registerTurnRunner(runner: TurnRunner): () => void;
  /** Starts a turn through the registered runner (a user message, a memory flush); a task in the ledger. */
  startTurn(request: HostTurnRequest): StartedTurn;
  /** The tasks ledger: detached turns and background work, their state, and cancellation. */
  readonly tasks: KernelTasks;
}

type Lifecycle = 'new' | 'starting' | 'started' | 'stopping' | 'stopped';

function callPathLogger(log: HostLogger): CallPathLogger {
  return {
    debug: (message) => log({ level: 'debug', source: 'kernel', message }),
    warn: (message) => log({ level: 'warn', source: 'kernel', message }),
    error: (message) => log({ level: 'error', source: 'kernel', message }),
  };
}

/** What policies and hooks are told about the run: the host's context with the resolved ids. */
function publicRunContext(run: ResolvedRun & { runId: string }): RunContext {
  const { agent: _agent, enabledPlugins: _enabled, sandbox: _sandbox, placement: _placement, ...context } = run;
  return Object.freeze(context);
}

export function createKernel(given: PincerConfig, options: KernelOptions = {}): Kernel {
  const config = snapshotConfig(given);
  const log = options.logger ?? defaultHostLogger;
  const logger = callPathLogger(log);
  const cwd = options.cwd ?? process.cwd();
  // Created before the host, which reports plugin states from its first start on.
  const audit = createAuditTrail(config.audit, { cwd, warn: (message) => log({ level: 'warn', source: 'kernel', message }) });
  const workspaceRoots = workspaceRootsOf(config, cwd);
  // The `mcp` block becomes the bridge's plugin entry, with the servers the policy denies left out.
  const plugins = withMcpBridge(config, { workspaces: workspaceRoots });
  const workspaces = agentWorkspacesOf(config, cwd);
  // What no tool may change (computed once, up front: assembly touches no disk), also held
  // read-only inside a plugin granted the workspace read-write.
  const protectedPaths = createProtectedPaths(config.tools?.fs?.protectedPaths, options.configPath && resolve(cwd, options.configPath), workspaces, createPluginCodePaths(plugins));
  // No plugin may start from where an agent can write (its workspace, a sandbox mount).
  const host = createPluginHost({
    plugins, logger: log, workspaceRoots, sharesSurface: sharesSurfaceOf(config), restart: options.restart,
    confinement: { config: config.confinement, workspaces, skillRoots: skillRootsOf(config, cwd), protectedPaths },
    decisions: audit.host,
  });
  const sandboxAdmin = createSandboxAdmin(host, config, cwd);
  const surfaces = new SurfaceCache(host, plugins.map((plugin) => plugin.id));
  const families = new FamilyTools(host, config);
  const resolveRun = createRunResolver(config, { cwd, configPath: options.configPath, plugins, protectedPaths });
  const skills = createSkillsService({ host, config, resolveRun, cwd, configPath: options.configPath, log });
  const router = new WorkspaceRouter(host, (placement) => skills.prepareConfig(placement), audit.workspace, { directChannel: options.directChannel ?? true });
  // A skill mount that changed must not stay readable through a grant made before.
  skills.api.onChange(() => router.refreshDirectSessions());
  audit.sessionKeyOf = (handle) => router.sessionKeyOf(handle);
  // Policy warnings have their own source, so a door that shows a ToolSet's warnings can leave these log lines out.
  const policy = createPolicyEngine(config, { warn: (message) => log({ level: 'warn', source: 'policy', message }) });
  const diagnostics = createDiagnosticsEmitter((error) => logger.warn(`diagnostics listener failed: ${String(error)}`));
  audit.watch(diagnostics);
  const trusted = options.trustedPolicies ?? [];
  const discovered = new DiscoveredTools();
  const plans = new ToolPlans(config.tools?.toolSearch);
  const tracker = new ToolListTracker(host);
  const runs = new RunRegistry(config.tools?.loopDetection);
  const listeners = new Set<(change: ToolsChangedEvent) => void>();
  const isKnownTool = (name: string) => isKnownCoreToolId(name) || tracker.providerOf(name) !== undefined;
  let lifecycle: Lifecycle = 'new';
  let starting: Promise<void> | undefined;
  const turns = createKernelTurns({
    config,
    host,
    assemble: (run) => assembleTools(run),
    probeTools: (run) => assembleTools(run).effectiveAllowlist,
    agentOfSession: (pluginId, handle) => router.agentOf(pluginId, handle),
    resolve: (run) => resolveRun(run),
    warn: (message) => log({ level: 'warn', source: 'kernel', message }),
  });

  host.onDidChange(() => {
    if (lifecycle !== 'started') return;
    for (const change of tracker.changes()) {
      for (const listener of [...listeners]) {
        try {
          listener(change);
        } catch (error) {
          logger.warn(`toolsChanged listener failed: ${String(error)}`);
        }
      }
    }
  });

  function assertUsable(): void {
    if (lifecycle === 'stopping' || lifecycle === 'stopped') throw new KernelUsageError('KERNEL_STOPPED', 'the kernel was stopped; create a new kernel to run tools again');
  }

  function assembleTools(runContext: RunContext = {}): ToolSet {
    assertUsable();
    if (lifecycle !== 'started') throw new KernelUsageError('KERNEL_NOT_STARTED', 'assembleTools() before start() resolved would return a partial tool list; await kernel.start() first');
    const resolved = resolveRun(runContext);
    const memoryWritePath = memoryWritePathOf(runContext);
    if (runContext.runId !== undefined && (typeof runContext.runId !== 'string' || !runContext.runId.trim())) {
      throw new KernelUsageError('INVALID_CALL', 'runContext.runId must be a non-empty string');
    }
    const runId = runContext.runId ?? RunRegistry.sessionRunId(resolved.agentId, resolved.sessionKey);
    if (runContext.runId) runs.claim(runId, resolved.agentId, resolved.sessionKey);
    const run = Object.assign(resolved, { runId }); // resolveRun made a fresh object: no copy needed
    // The family tools read the run's deny lists only when some enabled plugin declares a channel.
    const steps = () => policy.steps(run, run.sandbox.sandboxed);
    const surface = families.extend(surfaces.get(run.enabledPlugins), run, steps);
    const result = policy.evaluate(surface.tools, run, run.sandbox.sandboxed, { vocabulary: surfaces.vocabulary(), runWarnings: [...run.warnings, ...surface.warnings] });
    audit.noteRemovals(result.removals, run); // a look-up for a seen run shape; written later, off this path
    const target = { provider: run.provider, modelId: run.model };
    // At most three family tools: bound per run; everything surface-sized comes from the shape's plan.
    const familyTools = plans.familiesOf(result.tools).map((tool) => families.bind(tool, run, target, steps));
    const plan = plans.of(result.tools, target, memoryWritePath, familyTools);
    const caller = { runId, agentId: run.agentId, sessionKey: run.sessionKey, trigger: run.trigger ?? 'user', jobId: run.jobId, depth: run.subagentDepth ?? 0, tools: result.effectiveAllowlist, pluginTools: plan.pluginTools, memoryWritePath };
    const found = discovered.of(run.sessionKey);
    const bind = runToolBinder(plan, host, router, {
      sessionKey: run.sessionKey, agentId: run.agentId, placement: run.placement, beginCall: turns.callerRun(caller), memoryWritePath, families: familyTools, discovered: found,
    });
    const blocked = () => callsBlocked(host, config, run.enabledPlugins);
    return createToolSet({
      run,
      plan,
      bind,
      discovered: found,
      removed: result.removals,
      // tool_search is the kernel's own, added after the policy: present whenever the run has it.
      explain: (name) =>
        plan.search && normalizeToolPolicyName(name) === TOOL_SEARCH_NAME
          ? { tool: TOOL_SEARCH_NAME, present: true, layersPassed: [] }
          : explainInRun(result.explain(name), run, { host, policy, tracker, blocked }),
      warnings: [...result.warnings, ...host.toolWarnings(run.enabledPlugins)],
      effectiveAllowlist: result.effectiveAllowlist,
      blocked,
      pluginAvailability: (pluginId) => pluginAvailability(host, pluginId),
      assertUsable,
      diagnostics,
      logger,
      skills: (execute) => skills.forToolSet(run, execute),
      createGate: () => {
        const hooks = collectHooks(host, run.enabledPlugins, isKnownTool);
        // The required-plugins check costs a policy step per call; only agents that have one pay it.
        const required = hasRequiredPlugin(config, run.enabledPlugins)
          ? [{ ...requiredPluginsPolicy(host, run.enabledPlugins), blockCode: 'REQUIRED_PLUGIN_UNAVAILABLE' }]
          : [];
        return createToolGate({
          hooks: hooks.before,
          afterCallObservers: hooks.after,
          trustedPolicies: [...required, ...trusted],
          approvalSurface: options.approvalSurface,
          runState: runs.stateOf(runId, run.agentId, run.sessionKey),
          diagnostics,
          logger,
          runContext: publicRunContext(run),
          sandboxProfile: () => run.placement,
          denialsRecorded: audit.denialsRecorded,
        });
      },
    });
  }

  async function start(): Promise<void> {
    assertUsable();
    if (lifecycle === 'started') return;
    starting ??= (async () => {
      lifecycle = 'starting';
      await host.start();
      tracker.reset();
      // A backend id two plugins claim is refused at its first call; say so now, with the config path.
      const declared = host.contributions().map((p) => ({ pluginId: p.pluginId, backends: p.contributes.sandboxBackends.map((b) => b.id) }));
      for (const issue of backendConflicts(config, declared)) logger.error(`config ${issue.path}: ${issue.message}`);
      for (const { pluginId, hook, problems } of collectHooks(host, undefined, isKnownTool).problems) {
        logger.error(`plugin "${pluginId}" registers ${hook} with an invalid tools filter (${problems.join('; ')})${hook === 'before_tool_call' ? '; every call its hook would judge fails closed until the plugin is fixed' : ''}`);
      }
      if (lifecycle === 'starting') lifecycle = 'started';
    })();
    return starting;
  }

  return {
    start,
    stop: async () => {
      lifecycle = 'stopping';
      await turns.stop(); // cancelled turns settle (and are recorded) while their plugins still run
      await host.stop();
      router.reset();
      runs.clear();
      await audit.close(); // after host.stop(): the plugins' last state changes are recorded
      lifecycle = 'stopped';
    },
    skills: skills.api,
    assembleTools,
    plugins: () => host.status(),
    sandboxAdmin: (op, request) => {
      assertUsable();
      if (lifecycle !== 'started') throw new KernelUsageError('KERNEL_NOT_STARTED', 'sandboxAdmin() before start() resolved; await kernel.start() first');
      return sandboxAdmin(op, request);
    },
    on: (_event, listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    diagnostics,
    audit,
    host,
    registerTurnRunner: turns.registerTurnRunner,
    startTurn: (request) => {
      assertUsable();
      return turns.startTurn(request);
    },
    tasks: turns.tasks,
  };
}
