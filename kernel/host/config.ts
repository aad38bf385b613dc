import * as z from 'zod';

// setTimeout fires at once for delays past 2^31-1 ms; no deadline may be longer.
const Ms = z.number().int().positive().max(2_147_483_647);

/** Deadlines and grace periods of one plugin, in milliseconds. Defaults live here and only here. */
export const PluginTimeoutsSchema = z.object({
  /** Spawn → handshake answer. */
  handshakeMs: Ms.default(10_000),
  /** Idle deadline of a call: each `$/progress` restarts it. A tool's `timeoutMs` may only shorten it. */
  callMs: Ms.default(30_000),
  /** Absolute ceiling of a call, whatever its progress (2 h 10 min: a 7,200 s exec fits). */
  maxCallMs: Ms.default(7_800_000),
  /** Hook deadline. A hook's `timeoutMs` may only shorten it. */
  hookMs: Ms.default(15_000),
  /** Liveness ping after a missed deadline: no answer within this restarts the plugin. */
  pingMs: Ms.default(5_000),
  /** `$/shutdown` answer and exit after the pipe closes. */
  shutdownGraceMs: Ms.default(2_000),
  /** SIGTERM → SIGKILL. */
  killGraceMs: Ms.default(2_000),
});
export type PluginTimeouts = z.output<typeof PluginTimeoutsSchema>;

/** One configured plugin. Exactly one of `command` and `module`. Unknown keys are errors (a typo must not be ignored). */
export const PluginConfigSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/i, 'plugin ids are 1-64 letters, digits, ".", "_" and "-"'),
    /** argv of the plugin process, e.g. ["python3", "plugin.py"]. */
    command: z.array(z.string().min(1)).min(1).optional(),
    /** Path to a JS entry run with the kernel's own node. */
    module: z.string().min(1).optional(),
    /** Extra argv after `module`. */
    args: z.array(z.string()).default([]),
    cwd: z.string().optional(),
    /** Static manifest (pincer-plugin.json) for lazy activation; defaults to one next to `module`. */
    manifest: z.string().optional(),
    transport: z.enum(['fd3', 'stdio']).default('fd3'),
    /** Extra env for this plugin, on top of the allow-list. */
    env: z.record(z.string(), z.string()).default({}),
    /** Names of the kernel's own environment variables this plugin also receives (e.g. DOCKER_HOST for sandbox-docker). */
    inheritEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')).default([]),
    settings: z.record(z.string(), z.unknown()).default({}),
    /** Fail closed: agents that enable it cannot run tools while it is failed or missing. */
    required: z.boolean().default(false),
    /** Start on first use, with contributions from the manifest meanwhile. */
    lazy: z.boolean().default(false),
    timeouts: PluginTimeoutsSchema.default(PluginTimeoutsSchema.parse({})),
    maxMessageBytes: z.number().int().positive().optional(),
    /** Cap on a tool result's content (text and image data, in bytes); the rest is cut with a note. */
    maxResultBytes: z.number().int().positive().default(2 * 1024 * 1024),
    /** Core tool names this plugin serves instead of the bundled family (e.g. ["exec"]). */
    coreTools: z.array(z.string().min(1)).optional(),
    /** For plugin developers only: run this plugin even though its code lies inside a workspace. */
    allowInsideWorkspace: z.boolean().default(false),
    /** Run this plugin without the bubblewrap sandbox its manifest declares (logged loudly). */
    dangerouslyUnconfined: z.boolean().default(false),
  })
  .refine((c) => (c.command === undefined) !== (c.module === undefined), {
    message: 'give exactly one of "command" (argv) or "module" (a JS entry path)',
  });
export type PluginConfig = z.output<typeof PluginConfigSchema>;
export type PluginConfigInput = z.input<typeof PluginConfigSchema>;

/** Crash-loop policy (VS Code stops at 3 crashes in 5 minutes). */
export const RestartPolicySchema = z.object({
  maxCrashes: z.number().int().positive().default(3),
  windowMs: z.number().int().positive().default(300_000),
  backoffBaseMs: z.number().int().nonnegative().default(500),
  backoffMaxMs: z.number().int().positive().default(30_000),
});
export type RestartPolicy = z.output<typeof RestartPolicySchema>;
