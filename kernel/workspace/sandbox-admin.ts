/**
 * The operator's sandbox methods (`pincer sandbox list | recreate | prune | check | image build`)
 * sent to whichever plugin serves the backend, through the host like any backend request: the
 * CLI imports no plugin, and a third-party backend is listed, pruned and checked like a bundled
 * one when it declares the method. Each request carries the config's agents with the layer the
 * router sends at `sandbox/prepare`, so the backend judges its sandboxes as a session would.
 */
import { SANDBOX_ADMIN_METHODS, type SandboxAdminAgent, type SandboxAdminOperation, type SandboxAdminResult } from '../../protocol/index.js';
import { backendLayerOf, defaultAgentId, workspaceOf } from '../assembly/run-shape.js';
import { KernelUsageError } from '../assembly/usage-error.js';
import { resolveAgentSandbox } from '../config/sandbox-merge.js';
import type { PincerConfig } from '../config/schema.js';
import type { PluginHost } from '../host/index.js';
import { findById } from '../policy/index.js';
import { normalizeBackendId, resolveBackendPlugin } from './backends.js';

/** What the operator asks; the op's own parameters (a recreate target, prune hours, an image tag) ride along. */
export type SandboxAdminRequest<K extends SandboxAdminOperation> = { backend: string; agentId?: string } & (K extends 'recreate'
  ? { target: { session: string } | { agent: string } | { all: true } }
  : K extends 'prune'
    ? { idleHours?: number; maxAgeDays?: number }
    : K extends 'imageBuild'
      ? { tag?: string; dockerfile?: string }
      : object);

/** Image builds run for minutes; a self-test creates a container; listing walks the engine. */
const DEADLINE_MS: Record<SandboxAdminOperation, number> = { list: 120_000, recreate: 120_000, prune: 120_000, check: 300_000, imageBuild: 1_800_000 };

export type SandboxAdmin = <K extends SandboxAdminOperation>(op: K, request: SandboxAdminRequest<K>) => Promise<SandboxAdminResult<K>>;

export function createSandboxAdmin(host: PluginHost, config: PincerConfig, cwd: string): SandboxAdmin {
  const list = config.agents?.list ?? [];
  const agentsFor = (agentId: string | undefined): SandboxAdminAgent[] => {
    const chosen = agentId === undefined ? (list.length ? list : [undefined]) : [findById(Object.fromEntries(list.map((a) => [a.id, a])), agentId)?.value];
    if (agentId !== undefined && chosen[0] === undefined) {
      throw new KernelUsageError('INVALID_CALL', `unknown agent "${agentId}" (configured: ${list.map((a) => a.id).join(', ') || 'main'})`);
    }
    return chosen.map((agent) => {
      const id = agent?.id ?? defaultAgentId(config);
      return { agentId: id, workspaceDir: workspaceOf(config, agent, cwd), config: backendLayerOf(id, undefined, resolveAgentSandbox(config, agent)) };
    });
  };
  return async (op, request) => {
    const { backend, agentId, ...rest } = request;
    const backendId = normalizeBackendId(backend);
    const agents = agentsFor(agentId);
    const pluginId = resolveBackendPlugin(host.contributions(), {
      agentId: agents[0]!.agentId,
      backendId,
      backendPlugin: findById(config.backendPlugins, backendId)?.value,
    });
    const params = op === 'imageBuild' ? { backendId, ...rest } : { backendId, agents, ...rest };
    return host.invokeBackend(pluginId, SANDBOX_ADMIN_METHODS[op], params as never, { timeoutMs: DEADLINE_MS[op] }) as Promise<SandboxAdminResult<typeof op>>;
  };
}
