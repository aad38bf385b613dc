/**
 * Resolve a run context against config: which agent, which session, which plugins, whether
 * (and where) the session is sandboxed, and what to warn about. Agents, groups, providers
 * and senders match config keys trimmed and case-insensitively.
 */
import { resolve } from 'node:path';
import type { AgentConfig, PincerConfig, PluginConfig, SandboxConfig, SandboxMode } from '../config/schema.js';
import { resolveAgentSandbox } from '../config/sandbox-merge.js';
import { findById, isSessionSandboxed, resolveModelRef, resolveRunSessionKey } from '../policy/index.js';
import type { RunContext } from '../policy/index.js';
import { normalizeBackendId } from '../workspace/backends.js';
import { createPluginCodePaths } from '../workspace/plugin-code-paths.js';
import { createProtectedPaths } from '../workspace/protected-paths.js';
import type { SessionPlacement } from '../workspace/router.js';
import { RunContextError } from './errors.js';
import { runShapeWarnings } from './run-warnings.js';

export interface ResolvedRun extends RunContext {
  agentId: string;
  sessionKey: string;
  agent: AgentConfig | undefined;
  /** Enabled plugin ids; `undefined` = every configured plugin. */
  enabledPlugins: readonly string[] | undefined;
  sandbox: { mode: SandboxMode; sandboxed: boolean; backend: string };
  placement: SessionPlacement;
  /** What the run names that the config has rules for but none matched. */
  warnings: readonly string[];
}

/** The agent a run belongs to: the named one, else the one marked default, else the first, else `main`. */
export function defaultAgentId(config: PincerConfig): string {
  const list = config.agents?.list ?? [];
  return (list.find((agent) => agent.default) ?? list[0])?.id ?? 'main';
}

export function workspaceOf(config: PincerConfig, agent: AgentConfig | undefined, cwd: string): string {
  return resolve(cwd, agent?.workspace ?? config.agents?.defaults?.workspace ?? '.');
}

/**
 * What a backend receives as `config` at `sandbox/prepare` (and in its operator methods):
 * `{ agentId, sessionKey?, sandbox: {...} }`, plus the ssh backend's connection overrides as `ssh`.
 */
export function backendLayerOf(agentId: string, sessionKey: string | undefined, sandbox: SandboxConfig): Record<string, unknown> {
  // Unset access is left to the backend, whose default (as the reference's) is `none`.
  const access = sandbox.workspaceAccess;
  return {
    agentId,
    ...(sessionKey !== undefined ? { sessionKey } : {}),
    sandbox: { scope: sandbox.scope, ...(access ? { workspaceAccess: access } : {}), ...(sandbox.docker ? { docker: sandbox.docker } : {}) },
    ...(sandbox.ssh ? { ssh: sandbox.ssh } : {}),
  };
}

export interface RunResolverOptions {
  /** Base for relative workspaces. */
  cwd: string;
  /** The config file the kernel loaded; protected from tools when it lies inside a workspace. */
  configPath?: string;
  /** The plugin entries the host runs (the MCP bridge's included): the code of those allowed inside a workspace is protected there. */
  plugins?: readonly PluginConfig[];
  /** The protected paths of each workspace, when the caller already built them (the kernel does, for confinement too). */
  protectedPaths?: (workspaceDir: string) => readonly string[];
}

export type RunResolver = (run: RunContext) => ResolvedRun;

const SHAPE_CACHE_LIMIT = 256;

/** The part of a resolved run that depends only on its ids. */
type RunShape = Omit<ResolvedRun, Exclude<keyof RunContext, 'agentId' | 'sessionKey' | 'provider' | 'model'>>;

export function createRunResolver(config: PincerConfig, options: RunResolverOptions): RunResolver {
  const { cwd } = options;
  const list = config.agents?.list ?? [];
  const agentsById = Object.fromEntries(list.map((agent) => [agent.id, agent]));
  const workspaces = [undefined, ...list].map((agent) => workspaceOf(config, agent, cwd));
  const protectedPaths =
    options.protectedPaths ??
    createProtectedPaths(config.tools?.fs?.protectedPaths, options.configPath && resolve(cwd, options.configPath), workspaces, createPluginCodePaths(options.plugins ?? config.plugins ?? []));

  /** What the run's ids resolve to, cached per shape (bounded): assembly is a hot path. */
  const shapes = new Map<string, RunShape>();

  function resolveShape(run: RunContext): RunShape {
    const named = (run.agentId ?? defaultAgentId(config)).trim();
    const agent = findById(agentsById, named)?.value;
    // A misspelt agent must not silently get the defaults' (possibly wider) tool set.
    if (!agent && list.length > 0) {
      throw new RunContextError('UNKNOWN_AGENT', `no agent "${named}" in agents.list (configured: ${list.map((entry) => entry.id).join(', ')}); agent ids compare case-insensitively`);
    }
    const agentId = agent?.id ?? named;
    const { provider, model } = resolveModelRef(run.provider, run.model);
    const sessionCtx = { agentId, mainKey: config.session?.mainKey, scope: config.session?.scope };
    const sessionKey = resolveRunSessionKey(run, sessionCtx);
    const sandbox = resolveAgentSandbox(config, agent);
    const mode = sandbox.mode ?? 'off';
    const sandboxed = isSessionSandboxed(mode, sessionKey, sessionCtx);
    const backend = sandboxed ? (sandbox.backend ?? 'docker') : 'local';
    const enabledPlugins = agent?.plugins ?? config.agents?.defaults?.plugins;
    const workspaceDir = workspaceOf(config, agent, cwd);
    const access = sandbox.workspaceAccess;
    const backendConfig = sandboxed ? backendLayerOf(agentId, sessionKey, sandbox) : undefined;
    return Object.freeze({
      agentId,
      sessionKey,
      provider,
      model,
      agent,
      enabledPlugins,
      sandbox: Object.freeze({ mode, sandboxed, backend }),
      placement: Object.freeze({
        agentId,
        backendId: backend,
        workspaceDir,
        readOnly: sandboxed && access === 'ro',
        protectedPaths: protectedPaths(workspaceDir),
        backendPlugins: enabledPlugins,
        backendPlugin: findById(config.backendPlugins, normalizeBackendId(backend))?.value,
        backendConfig,
      }),
      warnings: Object.freeze(runShapeWarnings(config, `agents.${agentId}.tools`, { agentId: run.agentId, agent, groupId: run.groupId, provider, model, sender: run.sender })),
    });
  }

  return (run) => {
    const s = run.sender;
    const key = JSON.stringify([run.agentId, run.sessionKey, run.groupId, run.provider, run.model, s?.id, s?.username, s?.e164, s?.name]);
    let shape = shapes.get(key);
    if (!shape) {
      shape = resolveShape(run);
      if (shapes.size >= SHAPE_CACHE_LIMIT) shapes.delete(shapes.keys().next().value as string);
      shapes.set(key, shape);
    }
    return { ...run, ...shape };
  };
}
