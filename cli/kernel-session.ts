/**
 * Opens a kernel for one command: discover and load the config, create the kernel, start it with
 * progress on stderr, and guarantee `stop()` (no plugin process outlives the command).
 */
import { resolve } from 'node:path';
import { discoverConfig, loadDiscoveredConfig, type ConfigSource } from './config-source.js';
import { err, type CliContext } from './context.js';
import { CliError, toCliError } from './errors.js';
import { startProgress } from './format/progress.js';
import type { ApprovalSurface, Kernel, PincerConfig, PluginStatus, RunContext, ScriptedStep, ToolSet } from './kernel.js';
import { createStderrLogger, type LogRecord } from './logger.js';
import { checkWorkspace, resolveWorkspaceFlag } from './workspace-guard.js';

export interface KernelSession {
  kernel: Kernel;
  source: ConfigSource;
  /** The config the kernel runs (as loaded, plus any bundled plugin the command asked for). */
  config: PincerConfig;
  /** The `--workspace` directory (canonical), when the operator gave one. */
  workspace?: string;
}

export interface OpenOptions {
  /** The `--config` flag. */
  configFlag?: string;
  /** The `--workspace` flag: the workspace of agents the config gives none. */
  workspaceFlag?: string;
  /** The command, for usage errors. */
  command?: string;
  /** Log level for kernel and plugin logs on stderr; `$PINCER_LOG` overrides. */
  logLevel?: 'error' | 'warn' | 'info' | 'debug';
  /** Bundled plugins the command needs, added when the config has no entry with that id. */
  withBundled?: readonly string[];
  /** The command prints the run's policy warnings in its report, so the log does not repeat them. */
  reportsPolicyWarnings?: boolean;
  /** Who answers approvals: MCP clients by elicitation (serve), the terminal (call). */
  approvalSurface?: ApprovalSurface;
  /** `--script`: register the scripted turn runner with these steps (cli/script-runner.ts). */
  script?: readonly ScriptedStep[];
}

/** Runs `fn` with a started kernel and always stops it, even when `fn` throws. */
export async function withKernel<T>(ctx: CliContext, options: OpenOptions, fn: (session: KernelSession) => Promise<T>): Promise<T> {
  const session = await openKernel(ctx, options);
  try {
    return await fn(session);
  } finally {
    await session.kernel.stop().catch((cause) => err(ctx, `pincer: kernel stop failed: ${toCliError(cause).message}`));
  }
}

export async function openKernel(ctx: CliContext, options: OpenOptions): Promise<KernelSession> {
  const workspace = options.workspaceFlag === undefined ? undefined : resolveWorkspaceFlag(ctx, options.workspaceFlag, options.command);
  const api = await ctx.kernelApi();
  const source = discoverConfig(ctx, options.configFlag);
  // Agents without a configured workspace work in `--workspace`, else where pincer runs.
  const base = workspace ?? ctx.cwd;
  const loaded = await loadDiscoveredConfig(ctx, api, source, base);
  const plugins = (loaded.plugins ?? []) as Array<{ id: string }>;
  const missing = (options.withBundled ?? []).filter((id) => !plugins.some((p) => p.id === id));
  const config = missing.length ? { ...loaded, plugins: [...plugins, ...missing.map((id) => api.bundledPluginConfig(id, { workspace: base }))] } : loaded;
  const stderrLogger = createStderrLogger(ctx, options.logLevel ?? 'warn');
  const logger = options.reportsPolicyWarnings
    ? (record: LogRecord) => (record.source === 'policy' && record.level === 'warn' ? undefined : stderrLogger(record))
    : stderrLogger;
  let kernel: Kernel;
  try {
    kernel = api.createKernel(config, { logger, cwd: base, configPath: 'path' in source ? resolve(ctx.cwd, source.path) : undefined, approvalSurface: options.approvalSurface });
  } catch (cause) {
    throw toCliError(cause, 'KERNEL');
  }
  if (options.script) {
    const steps = options.script;
    // A turn whose message carries its own steps (a sessions_spawn task) replays those instead.
    kernel.registerTurnRunner?.(api.createScriptedTurnRunner((request) => {
      const own = api.stepsFromMessage(request.message);
      return own.length > 0 ? own : steps;
    }));
  }
  const progress = startProgress(ctx.stderr, 'starting plugins…');
  // Poll the supervisor's view rather than subscribing: start() is the only long wait, and a
  // 100 ms poll of an in-memory list costs nothing.
  const poll = setInterval(() => progress.update(describeStart(kernel.plugins())), 100);
  poll.unref();
  try {
    await kernel.start();
  } catch (cause) {
    await kernel.stop().catch(() => undefined);
    throw new CliError('KERNEL', `kernel failed to start: ${toCliError(cause).message}`, { cause });
  } finally {
    clearInterval(poll);
    progress.done();
  }
  return { kernel, source, config, workspace };
}

export function describeStart(plugins: PluginStatus[]): string {
  const starting = plugins.filter((p) => p.state === 'starting' || p.state === 'restarting').map((p) => p.id);
  const ready = plugins.filter((p) => p.state === 'ready').length;
  return starting.length
    ? `starting plugins: ${starting.join(', ')} (${ready}/${plugins.length} ready)`
    : `starting plugins (${ready}/${plugins.length} ready)`;
}

/** Assemble a run's tools; a kernel refusal (bad run context, say) becomes a KERNEL CLI error. */
export function assembleOrFail(kernel: Kernel, run: RunContext): ToolSet {
  try {
    return kernel.assembleTools(run);
  } catch (cause) {
    throw toCliError(cause, 'KERNEL');
  }
}

/** `assembleOrFail`, refusing a run whose workspace is unsafe or ignores `--workspace`. */
export function assembleRun(ctx: CliContext, session: KernelSession, run: RunContext): ToolSet {
  const toolSet = assembleOrFail(session.kernel, run);
  checkWorkspace(toolSet.workspace, session.workspace, ctx.env);
  return toolSet;
}
