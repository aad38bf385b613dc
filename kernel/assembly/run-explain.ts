/**
 * What `toolSet.explain` adds to the policy's answer, from the plugins' live state: a tool
 * whose plugin is failed is `unavailable` with that plugin's state and last error (not
 * "unknown", 10.5), a name no enabled plugin provides says whether the policy would still
 * remove it, and a present tool says when a missing required plugin blocks every call (23.4).
 */
import { isKnownCoreToolId } from '../../protocol/vocabulary/index.js';
import type { PluginAvailability } from '../adapter/index.js';
import type { PincerConfig } from '../config/schema.js';
import type { PluginHost } from '../host/index.js';
import type { PolicyEngine, ToolExplanation } from '../policy/index.js';
import { hasRequiredPlugin } from './required-plugins.js';
import type { ResolvedRun } from './run-shape.js';
import type { ToolListTracker } from './tools-changed.js';

/** Every call of the run is blocked, and why. */
export interface CallsBlocked {
  code: 'REQUIRED_PLUGIN_UNAVAILABLE';
  reason: string;
  plugins: { pluginId: string; state: string; reason: string }[];
}

/** A tool this run would hold, but its plugin is failed or stopped. */
export interface UnavailableToolExplanation {
  tool: string;
  present: false;
  unavailable: true;
  plugin: PluginAvailability;
}

/** `toolSet.explain(name)`: the policy's answer, plus what the plugins' state adds. */
export type RunToolExplanation = (ToolExplanation & { callsBlocked?: CallsBlocked }) | UnavailableToolExplanation;

const GONE = new Set(['failed', 'stopped', 'stopping']);

/** A plugin's state and last error as results and explanations show it; undefined for an unknown id. */
export function pluginAvailability(host: PluginHost, pluginId: string): PluginAvailability | undefined {
  try {
    const status = host.pluginStatus(pluginId);
    return { id: status.id, state: status.state, ...(status.lastError ? { lastError: status.lastError } : {}) };
  } catch {
    return undefined;
  }
}

/** Whether a required plugin of this run is failed, restarting or missing (the check the gate also makes per call). */
export function callsBlocked(host: PluginHost, config: PincerConfig, enabled: readonly string[] | undefined): CallsBlocked | undefined {
  if (!hasRequiredPlugin(config, enabled)) return undefined;
  const health = host.requiredPluginsHealthy(enabled);
  if (health.healthy) return undefined;
  const plugins = health.problems.map((p) => ({ pluginId: p.pluginId, state: p.state, reason: p.reason }));
  const list = plugins.map((p) => `"${p.pluginId}" is ${p.state}: ${p.reason}`).join('; ');
  return { code: 'REQUIRED_PLUGIN_UNAVAILABLE', reason: `every call of this run is blocked: a required plugin is not available (${list})`, plugins };
}

export interface RunExplainDeps {
  host: PluginHost;
  policy: PolicyEngine;
  tracker: ToolListTracker;
  blocked: () => CallsBlocked | undefined;
}

export function explainInRun(explanation: ToolExplanation, run: ResolvedRun, deps: RunExplainDeps): RunToolExplanation {
  if (explanation.present) {
    const blocked = deps.blocked();
    return blocked ? { ...explanation, callsBlocked: blocked } : explanation;
  }
  if (!('unknown' in explanation)) return explanation;
  const provider = deps.tracker.providerOf(explanation.tool);
  const enabled = !provider || !run.enabledPlugins || run.enabledPlugins.includes(provider);
  const plugin = provider && enabled ? pluginAvailability(deps.host, provider) : undefined;
  if (plugin && GONE.has(plugin.state)) return { tool: explanation.tool, present: false, unavailable: true, plugin };
  // For a name no enabled plugin provides, also say what the policy would do with it, so an
  // operator learns whether enabling a plugin is enough. Runs the same layers on that one name.
  const verdict = deps.policy.verdict(explanation.tool, run, run.sandbox.sandboxed);
  return {
    ...explanation,
    coreTool: isKnownCoreToolId(explanation.tool),
    ...(!verdict.present && 'removal' in verdict ? { wouldBeRemovedBy: verdict.removal } : {}),
  };
}
