import type Docker from 'dockerode';
import { SANDBOX_LABELS } from '../../../sdk/sandbox/constants.js';
import { selectForRecreate, selectPrunable, type RecreateTarget, type SandboxInfo } from '../../../sdk/sandbox/lifecycle.js';
import type { SandboxRegistry } from '../../../sdk/sandbox/registry.js';
import { toSandboxError } from './engine-errors.js';

/**
 * Library functions behind `pincer sandbox list | recreate | prune` for docker. Recreate
 * removes the containers; the next use of that scope creates a fresh one.
 */
export interface LifecycleDeps {
  docker: Docker;
  registry?: SandboxRegistry;
  /** Restrict to containers carrying these extra labels (tests). */
  labels?: Record<string, string>;
}

export async function listSandboxes(deps: LifecycleDeps): Promise<SandboxInfo[]> {
  const filters = [`${SANDBOX_LABELS.sandbox}=1`, ...Object.entries(deps.labels ?? {}).map(([k, v]) => `${k}=${v}`)];
  const containers = await deps.docker.listContainers({ all: true, filters: { label: filters } }).catch((e) => { throw toSandboxError(e, 'list sandbox containers'); });
  return containers.map((c) => {
    const name = (c.Names[0] ?? c.Id).replace(/^\//, '');
    const l = c.Labels;
    return {
      name,
      backendId: 'docker',
      scope: l[SANDBOX_LABELS.scope],
      scopeKey: l[SANDBOX_LABELS.scopeKey] ?? '',
      agentId: l[SANDBOX_LABELS.agentId],
      running: c.State === 'running',
      createdAtMs: Number(l[SANDBOX_LABELS.createdAtMs]) || c.Created * 1000,
      lastUsedAtMs: deps.registry?.get(name)?.lastUsedAtMs,
      image: c.Image,
      configHash: l[SANDBOX_LABELS.configHash],
    };
  });
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

/** `prune`: removes sandboxes idle longer than idleHours or older than maxAgeDays (0 disables each). */
export async function pruneSandboxes(deps: LifecycleDeps, rule: { idleHours: number; maxAgeDays: number; now?: number }): Promise<string[]> {
  return removeAll(deps, selectPrunable(await listSandboxes(deps), { ...rule, now: rule.now ?? Date.now() }));
}
