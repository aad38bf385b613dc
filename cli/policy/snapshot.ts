/**
 * One config's answer for each run shape: the tools a run gets and what policy removed, from a
 * started kernel (non-lazy plugins really start; lazy ones answer from their manifests).
 */
import type { CliContext } from '../context.js';
import { CliError, toCliError } from '../errors.js';
import type { KernelApi, PincerConfig, PolicyRemoval, RunContext, ToolSet } from '../kernel.js';
import { configError } from '../config-source.js';
import { createStderrLogger } from '../logger.js';

export interface ShapeOutcome {
  tools: Set<string>;
  /** Why each removed tool is missing: the layer and rule. */
  removed: Map<string, PolicyRemoval>;
  /** The plugin that serves each present tool. */
  pluginOf: Map<string, string | undefined>;
  /** Set when the kernel refuses the run itself (an agent this config does not list). */
  error?: string;
}

export interface PolicyKernel {
  file: string;
  config: PincerConfig;
  /** The run's tool set, or why the kernel refuses the run. */
  toolSet(run: RunContext): ToolSet | { error: string };
  assemble(run: RunContext): ShapeOutcome;
  stop(): Promise<void>;
}

export async function loadPolicyConfig(api: KernelApi, file: string, ctx: CliContext): Promise<PincerConfig> {
  try {
    return await api.loadConfig(file, { cwd: ctx.cwd });
  } catch (cause) {
    throw configError(cause, { kind: 'flag', path: file });
  }
}

/** Starts a kernel for one config file; policy warnings stay out of the log (they would repeat per shape). */
export async function openPolicyKernel(ctx: CliContext, api: KernelApi, file: string): Promise<PolicyKernel> {
  const config = await loadPolicyConfig(api, file, ctx);
  const log = createStderrLogger(ctx, 'error');
  // A config under review decides nothing: its removals and plugin starts stay out of the live audit trail.
  const kernel = api.createKernel({ ...config, audit: { enabled: false } }, { logger: (record) => (record.source === 'policy' ? undefined : log(record)), cwd: ctx.cwd, configPath: file });
  try {
    await kernel.start();
  } catch (cause) {
    await kernel.stop().catch(() => undefined);
    throw new CliError('KERNEL', `kernel failed to start for ${file}: ${toCliError(cause).message}`, { cause });
  }
  const toolSet = (run: RunContext): ToolSet | { error: string } => {
    try {
      return kernel.assembleTools(run);
    } catch (cause) {
      return { error: toCliError(cause).message };
    }
  };
  return {
    file,
    config,
    toolSet,
    assemble(run) {
      const set = toolSet(run);
      if ('error' in set) return { tools: new Set(), removed: new Map(), pluginOf: new Map(), error: set.error };
      return {
        tools: new Set(set.tools.map((t) => t.name)),
        removed: new Map(set.removed.map((r) => [r.tool, r])),
        pluginOf: new Map(set.tools.map((t) => [t.name, t.pluginId])),
      };
    },
    stop: () => kernel.stop(),
  };
}

/** `removed by the agent layer (agents.main.tools.deny: exec)`. */
export function describeRemoval(r: PolicyRemoval): string {
  const rule = r.ruleKind === 'deny' ? `deny: ${r.matchedRules.join(', ')}` : 'not in its allow list';
  return `the ${r.layer} layer${r.configKey ? ` (${r.configKey}, ${rule})` : ` (${rule})`}`;
}
