import { z } from 'zod';
import {
  DEFAULT_CONTAINER_PREFIX,
  DEFAULT_PRUNE_IDLE_HOURS,
  DEFAULT_PRUNE_MAX_AGE_DAYS,
  DEFAULT_SANDBOX_ENV,
  DEFAULT_SANDBOX_IMAGE,
  DEFAULT_SANDBOX_TMPFS,
  SANDBOX_WORKSPACE_MOUNT,
} from './constants.js';

/**
 * Operator-facing sandbox configuration (`agents.defaults.sandbox`, `agents.list[].sandbox`).
 * Schemas first; the resolved types below have every default filled in.
 */
export const SandboxModeSchema = z.enum(['off', 'non-main', 'all']);
export const SandboxScopeSchema = z.enum(['session', 'agent', 'shared']);
export const WorkspaceAccessSchema = z.enum(['none', 'ro', 'rw']);

export const DockerSettingsSchema = z.object({
  image: z.string().min(1).optional(),
  containerPrefix: z.string().optional(),
  workdir: z.string().startsWith('/').optional(),
  readOnlyRoot: z.boolean().optional(),
  tmpfs: z.array(z.string()).optional(),
  network: z.string().optional(),
  user: z.string().optional(),
  capDrop: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  setupCommand: z.string().optional(),
  pidsLimit: z.number().int().optional(),
  memory: z.union([z.string(), z.number()]).optional(),
  memorySwap: z.union([z.string(), z.number()]).optional(),
  cpus: z.number().optional(),
  ulimits: z.record(z.string(), z.union([z.number(), z.object({ soft: z.number(), hard: z.number() })])).optional(),
  seccompProfile: z.string().optional(),
  apparmorProfile: z.string().optional(),
  dns: z.array(z.string()).optional(),
  extraHosts: z.array(z.string()).optional(),
  binds: z.array(z.string()).optional(),
  dangerouslyAllowReservedContainerTargets: z.boolean().optional(),
  dangerouslyAllowExternalBindSources: z.boolean().optional(),
  dangerouslyAllowContainerNamespaceJoin: z.boolean().optional(),
});
export type DockerSettings = z.infer<typeof DockerSettingsSchema>;

export const PruneSettingsSchema = z.object({
  idleHours: z.number().nonnegative().optional(),
  maxAgeDays: z.number().nonnegative().optional(),
});

export const SandboxSettingsSchema = z.object({
  mode: SandboxModeSchema.optional(),
  backend: z.string().optional(),
  scope: SandboxScopeSchema.optional(),
  /** Legacy: true → `session`, false → `shared`. */
  perSession: z.boolean().optional(),
  workspaceAccess: WorkspaceAccessSchema.optional(),
  workspaceRoot: z.string().optional(),
  docker: DockerSettingsSchema.optional(),
  prune: PruneSettingsSchema.optional(),
});
export type SandboxSettings = z.infer<typeof SandboxSettingsSchema>;

export type ResolvedDockerSettings = DockerSettings &
  Required<Pick<DockerSettings, 'image' | 'containerPrefix' | 'workdir' | 'readOnlyRoot' | 'tmpfs' | 'network' | 'capDrop' | 'env' | 'binds'>>;

export interface ResolvedSandboxConfig {
  mode: z.infer<typeof SandboxModeSchema>;
  backend: string;
  scope: z.infer<typeof SandboxScopeSchema>;
  workspaceAccess: z.infer<typeof WorkspaceAccessSchema>;
  docker: ResolvedDockerSettings;
  prune: { idleHours: number; maxAgeDays: number };
}

/**
 * Merges global and per-agent settings (SPEC §5.4): agent values win, env is merged,
 * binds are global-then-agent, and per-agent docker/prune overrides are ignored for the
 * `shared` scope because one container then serves every agent.
 */
export function resolveSandboxConfig(global: SandboxSettings = {}, agent: SandboxSettings = {}): ResolvedSandboxConfig {
  const g = SandboxSettingsSchema.parse(global);
  const a = SandboxSettingsSchema.parse(agent);
  const legacyScope = (s: SandboxSettings) => (s.perSession === undefined ? undefined : s.perSession ? 'session' : 'shared');
  const scope = a.scope ?? legacyScope(a) ?? g.scope ?? legacyScope(g) ?? 'agent';
  const agentDocker = scope === 'shared' ? {} : (a.docker ?? {});
  const agentPrune = scope === 'shared' ? {} : (a.prune ?? {});
  const gd = g.docker ?? {};
  const docker: ResolvedDockerSettings = {
    ...gd,
    ...agentDocker,
    image: agentDocker.image ?? gd.image ?? DEFAULT_SANDBOX_IMAGE,
    containerPrefix: agentDocker.containerPrefix ?? gd.containerPrefix ?? DEFAULT_CONTAINER_PREFIX,
    workdir: agentDocker.workdir ?? gd.workdir ?? SANDBOX_WORKSPACE_MOUNT,
    readOnlyRoot: agentDocker.readOnlyRoot ?? gd.readOnlyRoot ?? true,
    tmpfs: agentDocker.tmpfs ?? gd.tmpfs ?? [...DEFAULT_SANDBOX_TMPFS],
    network: agentDocker.network ?? gd.network ?? 'none',
    capDrop: agentDocker.capDrop ?? gd.capDrop ?? ['ALL'],
    env: { ...DEFAULT_SANDBOX_ENV, ...gd.env, ...agentDocker.env },
    binds: [...(gd.binds ?? []), ...(agentDocker.binds ?? [])],
  };
  return {
    mode: a.mode ?? g.mode ?? 'off',
    backend: (a.backend ?? g.backend ?? 'docker').trim().toLowerCase(),
    scope,
    workspaceAccess: a.workspaceAccess ?? g.workspaceAccess ?? 'none',
    docker,
    prune: {
      idleHours: agentPrune.idleHours ?? g.prune?.idleHours ?? DEFAULT_PRUNE_IDLE_HOURS,
      maxAgeDays: agentPrune.maxAgeDays ?? g.prune?.maxAgeDays ?? DEFAULT_PRUNE_MAX_AGE_DAYS,
    },
  };
}

