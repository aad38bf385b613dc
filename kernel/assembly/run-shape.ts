/**
 * Resolve a run context against config: which agent, which session, which plugins, and
 * whether (and where) the session is sandboxed.
 */
import { resolve } from 'node:path';
import type { AgentConfig, PincerConfig, SandboxMode } from '../config/schema.js';
import { resolveAgentSandbox } from '../config/sandbox-merge.js';
import { isSessionSandboxed, resolveMainSessionKey } from '../policy/index.js';
import type { RunContext } from '../policy/index.js';
import type { SessionPlacement } from '../workspace/router.js';
import { RunContextError } from './errors.js';

export interface ResolvedRun extends RunContext {
  agentId: string;
  sessionKey: string;
  agent: AgentConfig | undefined;
  /** Enabled plugin ids; `undefined` = every configured plugin. */
  enabledPlugins: readonly string[] | undefined;
  sandbox: { mode: SandboxMode; sandboxed: boolean; backend: string };
  placement: SessionPlacement;
}

/** The agent a run belongs to: the named one, else the one marked default, else the first, else `main`. */
export function defaultAgentId(config: PincerConfig): string {
  const list = config.agents?.list ?? [];
  return (list.find((agent) => agent.default) ?? list[0])?.id ?? 'main';
}

export function resolveRun(config: PincerConfig, run: RunContext, cwd: string): ResolvedRun {
  const agentId = (run.agentId ?? defaultAgentId(config)).trim();
  const list = config.agents?.list ?? [];
  const agent = list.find((entry) => entry.id === agentId);
  // A misspelt agent must not silently get the defaults' (possibly wider) tool set.
  if (!agent && list.length > 0) {
    throw new RunContextError('UNKNOWN_AGENT', `no agent "${agentId}" in agents.list (configured: ${list.map((entry) => entry.id).join(', ')})`);
  }
  const sessionCtx = { agentId, mainKey: config.session?.mainKey, scope: config.session?.scope };
  const sessionKey = run.sessionKey?.trim() || resolveMainSessionKey(sessionCtx);
  const sandbox = resolveAgentSandbox(config, agent);
  const mode = sandbox.mode ?? 'off';
  const sandboxed = isSessionSandboxed(mode, sessionKey, sessionCtx);
  const backend = sandboxed ? (sandbox.backend ?? 'docker') : 'local';
  const workspace = agent?.workspace ?? config.agents?.defaults?.workspace;
  // Unset access is left to the backend, whose default (as the reference's) is `none`.
  const access = sandbox.workspaceAccess;
  // Backends read `{ agentId, sandbox: {...} }`; the ssh backend takes its connection overrides as `ssh`.
  const backendConfig = sandboxed
    ? { agentId, sandbox: { scope: sandbox.scope, ...(access ? { workspaceAccess: access } : {}), ...(sandbox.docker ? { docker: sandbox.docker } : {}) }, ...(sandbox.ssh ? { ssh: sandbox.ssh } : {}) }
    : undefined;
  return {
    ...run,
    agentId,
    sessionKey,
    agent,
    enabledPlugins: agent?.plugins ?? config.agents?.defaults?.plugins,
    sandbox: { mode, sandboxed, backend },
    placement: {
      agentId,
      backendId: backend,
      workspaceDir: resolve(cwd, workspace ?? '.'),
      readOnly: sandboxed && access === 'ro',
      backendConfig,
    },
  };
}
