import type { z } from 'zod';
import { mergeSandboxLayers } from '../policy/sandbox-merge.js';
import {
  DockerBackendSettingsSchema,
  SandboxSettingsSchema,
  type DockerBackendSettings,
  type DockerSettings,
  type SandboxModeSchema,
  type SandboxScopeSchema,
  type SandboxSettings,
  type WorkspaceAccessSchema,
} from './config-schema.js';
import {
  DEFAULT_CONTAINER_PREFIX,
  DEFAULT_DEPLOYMENT_ID,
  DEFAULT_PRUNE_IDLE_HOURS,
  DEFAULT_PRUNE_MAX_AGE_DAYS,
  DEFAULT_SANDBOX_ENV,
  DEFAULT_SANDBOX_IMAGE,
  DEFAULT_SANDBOX_MEMORY,
  DEFAULT_SANDBOX_PIDS_LIMIT,
  DEFAULT_SANDBOX_TMPFS,
  SANDBOX_WORKSPACE_MOUNT,
} from './constants.js';
import { SandboxError } from './errors.js';

export {
  DockerSettingsSchema, SandboxSettingsSchema, DockerBackendSettingsSchema, PruneSettingsSchema, SandboxModeSchema, SandboxScopeSchema,
  WorkspaceAccessSchema, DANGEROUS_DOCKER_FLAGS, type DangerousDockerFlag, type DockerSettings, type SandboxSettings, type DockerBackendSettings,
} from './config-schema.js';

/** Docker settings with every default filled in. */
export type ResolvedDockerSettings = DockerSettings &
  Required<Pick<DockerSettings, 'image' | 'containerPrefix' | 'workdir' | 'readOnlyRoot' | 'tmpfs' | 'network' | 'capDrop' | 'env' | 'binds' | 'pidsLimit' | 'memory'>>;

export interface ResolvedSandboxConfig {
  mode: z.infer<typeof SandboxModeSchema>;
  backend: string;
  scope: z.infer<typeof SandboxScopeSchema>;
  workspaceAccess: z.infer<typeof WorkspaceAccessSchema>;
  /** Which deployment the containers belong to (name and `pincer.deployment` label). */
  deploymentId: string;
  docker: ResolvedDockerSettings;
  prune: { idleHours: number; maxAgeDays: number };
}

/** Parses one layer, or throws CONFIG_INVALID naming each bad key (`docker.capdrop: Unrecognized key`). */
function parseLayer<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => {
    const keys = 'keys' in i && Array.isArray(i.keys) ? `.${i.keys.join(', .')}` : '';
    return `${[where, ...i.path].join('.')}${keys}: ${i.message}`;
  });
  throw new SandboxError('CONFIG_INVALID', `Invalid sandbox settings: ${problems.join('; ')}`, { data: { issues: problems } });
}

const legacyScope = (s: SandboxSettings) => (s.perSession === undefined ? undefined : s.perSession ? 'session' : 'shared');

/**
 * The effective config of one sandbox: the backend plugin's settings as the base layer, then the
 * layer the kernel sends (`agents.defaults.sandbox` merged with the agent's, see
 * kernel/config/sandbox-merge.ts), merged key by key by the one rule in sdk/policy/sandbox-merge.ts,
 * then the defaults. The kernel has already applied the `shared`-scope rule to its layer.
 */
export function resolveSandboxConfig(global: DockerBackendSettings = {}, layer: SandboxSettings = {}): ResolvedSandboxConfig {
  const g = parseLayer(DockerBackendSettingsSchema, global, 'settings');
  const a = parseLayer(SandboxSettingsSchema, layer, 'sandbox');
  const { deploymentId, registryPath: _registry, allowHardLinks: _links, ...base } = g;
  const merged = mergeSandboxLayers<SandboxSettings>(base, a);
  const scope = a.scope ?? legacyScope(a) ?? g.scope ?? legacyScope(g) ?? 'agent';
  const d = merged.docker ?? {};
  const docker: ResolvedDockerSettings = {
    ...d,
    image: d.image ?? DEFAULT_SANDBOX_IMAGE,
    containerPrefix: d.containerPrefix ?? DEFAULT_CONTAINER_PREFIX,
    workdir: d.workdir ?? SANDBOX_WORKSPACE_MOUNT,
    readOnlyRoot: d.readOnlyRoot ?? true,
    tmpfs: d.tmpfs ?? [...DEFAULT_SANDBOX_TMPFS],
    network: d.network ?? 'none',
    capDrop: d.capDrop ?? ['ALL'],
    env: { ...DEFAULT_SANDBOX_ENV, ...d.env },
    binds: d.binds ?? [],
    pidsLimit: d.pidsLimit ?? DEFAULT_SANDBOX_PIDS_LIMIT,
    memory: d.memory ?? DEFAULT_SANDBOX_MEMORY,
  };
  return {
    mode: merged.mode ?? 'off',
    backend: (merged.backend ?? 'docker').trim().toLowerCase(),
    scope,
    workspaceAccess: merged.workspaceAccess ?? 'none',
    deploymentId: deploymentId ?? DEFAULT_DEPLOYMENT_ID,
    docker,
    prune: {
      idleHours: merged.prune?.idleHours ?? DEFAULT_PRUNE_IDLE_HOURS,
      maxAgeDays: merged.prune?.maxAgeDays ?? DEFAULT_PRUNE_MAX_AGE_DAYS,
    },
  };
}
