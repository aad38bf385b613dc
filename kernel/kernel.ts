/**
 * The kernel: config in, a plugin host started, and per run a policy-governed ToolSet.
 * `assembleTools` is the hot path: pure and in memory (cached contributions, cached
 * policy plans, cached schema normalization); no IPC, no spawn, no disk.
 */
import { createDiagnosticsEmitter, type DiagnosticsEmitter } from './diagnostics/index.js';
import { createToolGate, type ApprovalSurface, type CallPathLogger, type KernelTool, type TrustedToolPolicy } from './gate/index.js';
import { createPluginHost, defaultHostLogger, type HostLogger, type PluginHost, type PluginStatus } from './host/index.js';
import { normalizeToolSchema } from './schema/index.js';
import { createPolicyEngine, type RunContext, type ToolExplanation } from './policy/index.js';
import { isKnownCoreToolId } from '../protocol/vocabulary/index.js';
import type { PincerConfig } from './config/schema.js';
import { collectHooks } from './assembly/hooks.js';
import { pluginKernelTool } from './assembly/plugin-tool.js';
import { createRunResolver, type ResolvedRun } from './assembly/run-shape.js';
import { SurfaceCache } from './assembly/surface.js';
import { createToolSet, type ToolSet } from './assembly/tool-set.js';
import { hasRequiredPlugin, requiredPluginsPolicy } from './assembly/required-plugins.js';
import { WorkspaceRouter } from './workspace/router.js';
import { withMcpBridge } from './mcp/bridge-entry.js';
import { DiscoveredTools } from './tool-search/discovered.js';
import { planToolSearch } from './tool-search/plan.js';
import { TOOL_SEARCH_NAME } from './tool-search/search-tool.js';
import { normalizeToolPolicyName } from '../sdk/policy/index.js';

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
}

export interface Kernel {
  start(): Promise<void>;
  stop(): Promise<void>;
  assembleTools(run?: RunContext): ToolSet;
  plugins(): PluginStatus[];
  on(event: 'toolsChanged', listener: () => void): () => void;
  /** Typed `tool.execution.*` events; never raw params or output. */
  readonly diagnostics: DiagnosticsEmitter;
  /** The plugin host, for hosts that need lower-level control. */
  readonly host: PluginHost;
}

function callPathLogger(log: HostLogger): CallPathLogger {
  return {
    debug: (message) => log({ level: 'debug', source: 'kernel', message }),
    warn: (message) => log({ level: 'warn', source: 'kernel', message }),
    error: (message) => log({ level: 'error', source: 'kernel', message }),
  };
}

export function createKernel(config: PincerConfig, options: KernelOptions = {}): Kernel {
  const log = options.logger ?? defaultHostLogger;
  const logger = callPathLogger(log);
  const cwd = options.cwd ?? process.cwd();
  // The `mcp` block becomes the bridge's plugin entry, with the servers the policy denies left out.
  const plugins = withMcpBridge(config);
  const host = createPluginHost({ plugins, logger: log });
  const router = new WorkspaceRouter(host);
  const surfaces = new SurfaceCache(host, plugins.map((plugin) => plugin.id));
  const resolveRun = createRunResolver(config, { cwd, configPath: options.configPath });
  // Policy warnings have their own source, so a door that shows a ToolSet's warnings can leave these log lines out.
  const policy = createPolicyEngine(config, { warn: (message) => log({ level: 'warn', source: 'policy', message }) });
  const diagnostics = createDiagnosticsEmitter((error) => logger.warn(`diagnostics listener failed: ${String(error)}`));
  const trusted = options.trustedPolicies ?? [];
  const discovered = new DiscoveredTools();

  function assembleTools(runContext: RunContext = {}): ToolSet {
    const run = resolveRun(runContext);
    const surface = surfaces.get(run.enabledPlugins);
    const result = policy.evaluate(surface.tools, run, run.sandbox.sandboxed, { vocabulary: surfaces.vocabulary(), runWarnings: [...run.warnings, ...surface.warnings] });
    const target = { provider: run.provider, modelId: run.model };
    const binding = { sessionKey: run.sessionKey, agentId: run.agentId, placement: run.placement };
    const tools: KernelTool[] = result.tools.map((tool) =>
      pluginKernelTool(tool, normalizeToolSchema(tool.contribution.inputSchema, target), host, router, binding),
    );
    // Large runs list their deferrable tools only once `tool_search` found them.
    const search = planToolSearch(tools, config.tools?.toolSearch, discovered.of(run.sessionKey), result.tools);
    return createToolSet({
      run,
      tools: search?.all ?? tools,
      listed: search?.listed,
      refusal: search?.refusal,
      removed: result.removals,
      // tool_search is the kernel's own, added after the policy: present whenever the run has it.
      explain: (name) => (search && normalizeToolPolicyName(name) === TOOL_SEARCH_NAME ? { tool: TOOL_SEARCH_NAME, present: true, layersPassed: [] } : explainMissing(result.explain(name), run)),
      warnings: result.warnings,
      effectiveAllowlist: result.effectiveAllowlist,
      logger,
      createGate: () => {
        const hooks = collectHooks(host, run.enabledPlugins);
        return createToolGate({
          hooks: hooks.before,
          afterCallObservers: hooks.after,
          // The required-plugins check costs a policy step per call; only agents that have one pay it.
          trustedPolicies: hasRequiredPlugin(config, run.enabledPlugins) ? [requiredPluginsPolicy(host, run.enabledPlugins), ...trusted] : trusted,
          approvalSurface: options.approvalSurface,
          loopDetection: config.tools?.loopDetection,
          diagnostics,
          logger,
          runContext: { agentId: run.agentId, sessionKey: run.sessionKey, trigger: run.trigger, sandboxProfile: run.placement },
        });
      },
    });
  }

  /**
   * For a name no enabled plugin provides, also say what the policy would do with it, so an
   * operator learns whether enabling a plugin is enough. Runs the same layers on that one name.
   */
  function explainMissing(explanation: ToolExplanation, run: ResolvedRun): ToolExplanation {
    if (explanation.present || !('unknown' in explanation)) return explanation;
    const verdict = policy.verdict(explanation.tool, run, run.sandbox.sandboxed);
    return {
      ...explanation,
      coreTool: isKnownCoreToolId(explanation.tool),
      ...(!verdict.present && 'removal' in verdict ? { wouldBeRemovedBy: verdict.removal } : {}),
    };
  }

  return {
    start: () => host.start(),
    stop: async () => {
      await host.stop();
      router.reset();
    },
    assembleTools,
    plugins: () => host.status(),
    on: (_event, listener) => host.onDidChange(listener),
    diagnostics,
    host,
  };
}
