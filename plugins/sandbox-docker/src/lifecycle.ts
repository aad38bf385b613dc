import type Docker from 'dockerode';
import { SANDBOX_LABELS } from '../../../sdk/sandbox/constants.js';
import { selectForRecreate, selectPrunable, type RecreateTarget, type SandboxInfo } from '../../../sdk/sandbox/lifecycle.js';
import type { SandboxRegistry } from '../../../sdk/sandbox/registry.js';
import { toSandboxError } from './engine-errors.js';

/**
 * Library functions behind `pincer sandbox list | recreate | prune` for docker. A container is
 * this deployment's only when it carries the deployment's `pincer.deployment` label AND its name
 * is exactly a name this deployment's config gives it (never a name prefix): another config
 * sharing the engine, a prefix or even the label keeps its containers.
 */
export interface LifecycleDeps {
  docker: Docker;
  deploymentId: string;
  /** The names this config would give a container with these labels; a container named otherwise is not ours. */
  expectedNames: (info: SandboxInfo) => readonly string[];
  registry?: SandboxRegistry;
  /** Restrict to containers carrying these extra labels too (tests). */
  labels?: Record<string, string>;
}

function toInfo(c: Docker.ContainerInfo, registry: SandboxRegistry | undefined): SandboxInfo {
  const name = (c.Names[0] ?? c.Id).replace(/^\//, '');
  const l = c.Labels;
  return {
    name,
    backendId: 'docker',
    deploymentId: l[SANDBOX_LABELS.deployment],
    scope: l[SANDBOX_LABELS.scope],
    scopeKey: l[SANDBOX_LABELS.scopeKey] ?? '',
    agentId: l[SANDBOX_LABELS.agentId],
    running: c.State === 'running',
    createdAtMs: Number(l[SANDBOX_LABELS.createdAtMs]) || c.Created * 1000,
    lastUsedAtMs: registry?.get(name)?.lastUsedAtMs,
    image: c.Image,
    configHash: l[SANDBOX_LABELS.configHash],
  };
}

export async function listSandboxes(deps: LifecycleDeps): Promise<SandboxInfo[]> {
  const filters = [`${SANDBOX_LABELS.sandbox}=1`, `${SANDBOX_LABELS.deployment}=${deps.deploymentId}`, ...Object.entries(deps.labels ?? {}).map(([k, v]) => `${k}=${v}`)];
  const containers = await deps.docker.listContainers({ all: true, filters: { label: filters } }).catch((e) => { throw toSandboxError(e, 'list sandbox containers'); });
  return containers
    .map((c) => toInfo(c, deps.registry))
    .filter((info) => info.deploymentId === deps.deploymentId && deps.expectedNames(info).includes(info.name));
}

async function removeAll(deps: LifecycleDeps, infos: SandboxInfo[]): Promise<string[]> {
  for (const info of infos) {
    await deps.docker.getContainer(info.name).remove({ force: true }).catch((e: { statusCode?: number }) => {
      if (e?.statusCode !== 404) throw toSandboxError(e, `remove container ${info.name}`);
    });
    deps.registry?.delete(info.name);
  }
  return infos.map((i) => i.name);
}

/** `recreate --session S | --agent A | --all`: returns the removed container names. */
export async function recreateSandboxes(deps: LifecycleDeps, target: RecreateTarget): Promise<string[]> {
  return removeAll(deps, selectForRecreate(await listSandboxes(deps), target));
}

/** Running `docker exec` sessions of a container: a command is in flight, whatever the registry says. */
async function activeExecs(docker: Docker, name: string): Promise<number> {
  const info = await docker.getContainer(name).inspect().catch(() => undefined);
  return info?.ExecIDs?.length ?? 0;
}

/** `prune`: removes sandboxes idle longer than idleHours or older than maxAgeDays (0 disables each), never a busy one. */
export async function pruneSandboxes(deps: LifecycleDeps, rule: { idleHours: number; maxAgeDays: number; now?: number }): Promise<string[]> {
  const judged = { ...rule, now: rule.now ?? Date.now() };
  const candidates = selectPrunable(await listSandboxes(deps), judged);
  const withExecs = await Promise.all(candidates.map(async (info) => ({ ...info, activeExecs: await activeExecs(deps.docker, info.name) })));
  return removeAll(deps, selectPrunable(withExecs, judged));
}
