import * as z from 'zod';

/**
 * Operator-facing sandbox settings (`agents.defaults.sandbox`, `agents.list[].sandbox`, and the
 * docker backend plugin's own `settings`). Objects are strict: a misspelt key, above all a
 * misspelt `dangerouslyAllow…`, is an error rather than a setting that silently does nothing.
 */
export const SandboxModeSchema = z.enum(['off', 'non-main', 'all']);
export const SandboxScopeSchema = z.enum(['session', 'agent', 'shared']);
export const WorkspaceAccessSchema = z.enum(['none', 'ro', 'rw']);

/** Short enough that prefix, deployment id, a readable slug and a 96-bit hash fit Docker's 63 characters. */
export const MAX_CONTAINER_PREFIX_LENGTH = 20;
export const MAX_DEPLOYMENT_ID_LENGTH = 12;

const ContainerPrefixSchema = z
  .string()
  .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/, 'a container prefix is a non-empty Docker name start: letters, digits, "_", "." and "-", beginning with a letter or digit')
  .max(MAX_CONTAINER_PREFIX_LENGTH);

/** The overrides that each lift one default fence; `pincer config check` names every one in effect. */
export const DANGEROUS_DOCKER_FLAGS = {
  dangerouslyAllowReservedContainerTargets: 'binds may target /workspace or /agent and shadow the sandbox mounts',
  dangerouslyAllowExternalBindSources: 'binds may mount host directories outside the workspace',
  dangerouslyAllowContainerNamespaceJoin: 'network "container:<id>" may join another container\'s network namespace',
  dangerouslyAllowUnconfinedSeccomp: 'seccomp may be "unconfined" or a profile that allows every system call',
  dangerouslyAllowUnconfinedAppArmor: 'AppArmor may be "unconfined"',
  dangerouslyAllowCapabilities: 'the container may keep Linux capabilities (capDrop without "ALL")',
  dangerouslyAllowWritableRoot: 'the container root filesystem may be writable (readOnlyRoot: false)',
  dangerouslyAllowRootUser: 'the container may run as root (user 0 / root)',
} as const;
export type DangerousDockerFlag = keyof typeof DANGEROUS_DOCKER_FLAGS;

const dangerousFlags = Object.fromEntries(Object.keys(DANGEROUS_DOCKER_FLAGS).map((k) => [k, z.boolean().optional()])) as Record<DangerousDockerFlag, z.ZodOptional<z.ZodBoolean>>;

export const DockerSettingsSchema = z.strictObject({
  image: z.string().min(1).optional(),
  containerPrefix: ContainerPrefixSchema.optional(),
  workdir: z.string().startsWith('/').optional(),
  readOnlyRoot: z.boolean().optional(),
  tmpfs: z.array(z.string()).optional(),
  network: z.string().optional(),
  user: z.string().optional(),
  capDrop: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  setupCommand: z.string().optional(),
  /** 0 removes the limit. */
  pidsLimit: z.number().int().nonnegative().optional(),
  /** Bytes or `512m`/`2g`; 0 removes the limit. */
  memory: z.union([z.string(), z.number().nonnegative()]).optional(),
  memorySwap: z.union([z.string(), z.number()]).optional(),
  cpus: z.number().nonnegative().optional(),
  ulimits: z.record(z.string(), z.union([z.number(), z.strictObject({ soft: z.number(), hard: z.number() })])).optional(),
  /** An absolute path to a seccomp JSON profile (read and sent to the engine), or `unconfined`. */
  seccompProfile: z.string().min(1).optional(),
  apparmorProfile: z.string().min(1).optional(),
  /** The OCI runtime the engine runs the container with (`runsc`: gVisor), as registered in its daemon.json; `sandbox check` verifies it. */
  runtime: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'a runtime name registered with the engine, e.g. "runsc"').optional(),
  dns: z.array(z.string()).optional(),
  extraHosts: z.array(z.string()).optional(),
  binds: z.array(z.string()).optional(),
  ...dangerousFlags,
});
export type DockerSettings = z.infer<typeof DockerSettingsSchema>;

export const PruneSettingsSchema = z.strictObject({
  idleHours: z.number().nonnegative().optional(),
  maxAgeDays: z.number().nonnegative().optional(),
});

/** One layer of sandbox settings, as the kernel sends it in `sandbox/prepare` (`config.sandbox`). */
export const SandboxSettingsSchema = z.strictObject({
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

/** The docker backend plugin's `settings`: the base sandbox layer plus deployment-wide keys. */
export const DockerBackendSettingsSchema = SandboxSettingsSchema.extend({
  /**
   * Names this deployment: part of every container name and the `pincer.deployment` label that
   * `pincer sandbox list|recreate|prune` select by. Give configs that share an engine and a
   * workspace different ids.
   */
  deploymentId: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'a deployment id is lower-case letters, digits and "-", beginning with a letter or digit').max(MAX_DEPLOYMENT_ID_LENGTH).optional(),
  /** The sandbox registry file (last use per container); default: the plugin's data directory. */
  registryPath: z.string().min(1).optional(),
  /** Read and write regular files with more than one hard link (refused by default: a link can name a file outside the workspace). */
  allowHardLinks: z.boolean().optional(),
});
export type DockerBackendSettings = z.infer<typeof DockerBackendSettingsSchema>;
