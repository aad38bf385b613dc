import { z } from 'zod';

/** Deadlines and grace periods of one plugin, in milliseconds. Defaults live here and only here. */
export const PluginTimeoutsSchema = z.object({
  /** Spawn → handshake answer. */
  handshakeMs: z.number().int().positive().default(10_000),
  /** Default per-call deadline (a tool's own `timeoutMs` overrides it). */
  callMs: z.number().int().positive().default(30_000),
  /** Hard cap a call may reach by reporting progress. */
  maxCallMs: z.number().int().positive().default(300_000),
  /** Default hook deadline. */
  hookMs: z.number().int().positive().default(15_000),
  /** `$/shutdown` answer and exit after the pipe closes. */
  shutdownGraceMs: z.number().int().positive().default(2_000),
  /** SIGTERM → SIGKILL. */
  killGraceMs: z.number().int().positive().default(2_000),
});
export type PluginTimeouts = z.output<typeof PluginTimeoutsSchema>;

/** One configured plugin. Exactly one of `command` and `module`. Unknown keys are errors (a typo must not be ignored). */
export const PluginConfigSchema = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/i, 'plugin ids are letters, digits, ".", "_" and "-"'),
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
    settings: z.record(z.string(), z.unknown()).default({}),
    /** Fail closed: agents that enable it cannot run tools while it is failed or missing. */
    required: z.boolean().default(false),
    /** Start on first use, with contributions from the manifest meanwhile. */
    lazy: z.boolean().default(false),
    timeouts: PluginTimeoutsSchema.default(PluginTimeoutsSchema.parse({})),
    maxMessageBytes: z.number().int().positive().optional(),
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
