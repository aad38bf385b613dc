/**
 * Operator methods of a sandbox backend: what `pincer sandbox list | recreate | prune | check |
 * image build` ask of whichever plugin serves the backend, so a third-party backend is listed,
 * pruned and checked like a bundled one. Each is optional and declared as a capability
 * (`admin/<op>`) in the backend contribution; the CLI reaches them through the kernel's host and
 * imports no plugin.
 */
import * as z from 'zod';
import { defineRequest } from '../define.js';
import { lazySchema } from '../lazy-schema.js';

/** One agent as the backend would see it at `sandbox/prepare`: the same `config` layer the kernel sends there. @since 1 */
export const SandboxAdminAgent = lazySchema(() => z.object({
  agentId: z.string().min(1),
  /** The host directory the agent's sandbox mounts or copies as its workspace. */
  workspaceDir: z.string().min(1),
  /** What `sandbox/prepare` would carry as `config` for this agent (its sandbox layer, connection overrides). */
  config: z.record(z.string(), z.unknown()),
}));
export type SandboxAdminAgent = z.infer<typeof SandboxAdminAgent>;

const AdminParams = lazySchema(() => z.object({
  backendId: z.string().min(1),
  /** The agents of the config (or the one the operator named): the backend names and judges its sandboxes by them. */
  agents: z.array(SandboxAdminAgent),
}));

/** One sandbox a backend holds for this config's deployment. @since 1 */
export const SandboxListing = lazySchema(() => z.object({
  name: z.string(),
  backendId: z.string(),
  scope: z.string().optional(),
  scopeKey: z.string(),
  agentId: z.string().optional(),
  running: z.boolean(),
  createdAtMs: z.number(),
  lastUsedAtMs: z.number().optional(),
  image: z.string().optional(),
  configHash: z.string().optional(),
  /** Whether it still runs the config its scope would get now; null when that cannot be computed. */
  configMatches: z.boolean().nullable(),
  /** Commands running in it right now; prune never removes a busy sandbox. */
  activeExecs: z.number().int().nonnegative().optional(),
}));
export type SandboxListing = z.infer<typeof SandboxListing>;

/** One step of a backend's self-test. @since 1 */
export const SandboxCheckStep = lazySchema(() => z.object({ name: z.string(), ok: z.boolean(), detail: z.string(), code: z.string().optional() }));
export type SandboxCheckStep = z.infer<typeof SandboxCheckStep>;

export const RecreateTargetSchema = lazySchema(() => z.union([
  z.object({ session: z.string().min(1) }).strict(),
  z.object({ agent: z.string().min(1) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]));

/** @since 1 */
export const SandboxAdminList = defineRequest('sandbox/admin/list', AdminParams, lazySchema(() => z.object({ sandboxes: z.array(SandboxListing) })), {
  direction: 'kernel-to-plugin', since: 1, capability: 'admin/list',
  doc: "Lists the backend's sandboxes of this config's deployment, each with whether it still matches its scope's current config.",
});
/** @since 1 */
export const SandboxAdminRecreate = defineRequest('sandbox/admin/recreate', lazySchema(() => AdminParams.extend({ target: RecreateTargetSchema })), lazySchema(() => z.object({ removed: z.array(z.string()) })), {
  direction: 'kernel-to-plugin', since: 1, capability: 'admin/recreate',
  doc: 'Removes the sandboxes of one session, one agent or all of them; each is created afresh on next use.',
});
/** @since 1 */
export const SandboxAdminPrune = defineRequest(
  'sandbox/admin/prune',
  lazySchema(() => AdminParams.extend({ idleHours: z.number().nonnegative().optional(), maxAgeDays: z.number().nonnegative().optional() })),
  lazySchema(() => z.object({ rule: z.object({ idleHours: z.number(), maxAgeDays: z.number() }), removed: z.array(z.string()) })),
  {
    direction: 'kernel-to-plugin', since: 1, capability: 'admin/prune',
    doc: "Removes sandboxes idle or older than the rule (the backend's configured defaults for what is not given; 0 disables a rule) that no command is using.",
  },
);
/** @since 1 */
export const SandboxAdminCheck = defineRequest('sandbox/admin/check', AdminParams, lazySchema(() => z.object({ ok: z.boolean(), checks: z.array(SandboxCheckStep) })), {
  direction: 'kernel-to-plugin', since: 1, capability: 'admin/check',
  doc: "The backend's self-test for these agents, failing closed: every step it ran, the first failure last.",
});
/** @since 1 */
export const SandboxAdminImageBuild = defineRequest(
  'sandbox/admin/imageBuild',
  lazySchema(() => z.object({ backendId: z.string().min(1), tag: z.string().min(1).optional(), dockerfile: z.string().min(1).optional() })),
  lazySchema(() => z.object({ tag: z.string(), imageId: z.string().optional(), dockerfile: z.string() })),
  {
    direction: 'kernel-to-plugin', since: 1, capability: 'admin/imageBuild',
    doc: "Builds the backend's sandbox image (its shipped definition unless a file is named); build output arrives as log notifications.",
  },
);

/** Every operator method by operation. @since 1 */
export const SANDBOX_ADMIN_METHODS = {
  list: SandboxAdminList,
  recreate: SandboxAdminRecreate,
  prune: SandboxAdminPrune,
  check: SandboxAdminCheck,
  imageBuild: SandboxAdminImageBuild,
} as const;
export type SandboxAdminOperation = keyof typeof SANDBOX_ADMIN_METHODS;
export type SandboxAdminParams<K extends SandboxAdminOperation> = z.input<(typeof SANDBOX_ADMIN_METHODS)[K]['params']>;
export type SandboxAdminResult<K extends SandboxAdminOperation> = z.output<(typeof SANDBOX_ADMIN_METHODS)[K]['result']>;

/** The capability a backend declares for an operator method. */
export const adminCapability = (op: SandboxAdminOperation): string => `admin/${op}`;
