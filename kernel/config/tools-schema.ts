/**
 * Operator-facing tool policy config, validated with zod. Unknown keys are errors
 * (a misspelt `alow` must not silently allow everything).
 */
import * as z from 'zod';
import { TOOL_PROFILE_IDS } from '../../protocol/vocabulary/index.js';
import { normalizeProtectedPath } from '../workspace/protected-paths.js';
import { ToolSearchConfigSchema } from '../tool-search/config.js';

const toolName = z.string().min(1, 'a tool name or pattern must not be empty');
const toolList = z.array(toolName);

/** allow / alsoAllow / deny: the shape of every policy layer. */
export const ToolPolicyConfigSchema = z.strictObject({
  allow: toolList.optional(),
  alsoAllow: toolList.optional(),
  deny: toolList.optional(),
});

const profileId = z.enum(TOOL_PROFILE_IDS as [string, ...string[]]);

/** A `byProvider` entry: a policy plus an optional profile, keyed by `provider` or `provider/model`. */
export const ProviderToolPolicySchema = ToolPolicyConfigSchema.extend({ profile: profileId.optional() });

/** `toolsBySender` keys: `id:<v>`, `e164:<v>`, `username:<v>`, `name:<v>`, a bare id, or `*`. */
export const SenderPoliciesSchema = z.record(z.string().min(1), ToolPolicyConfigSchema);

export const LoopDetectionConfigSchema = z.strictObject({
  enabled: z.boolean().optional(),
  historySize: z.number().optional(),
  warningThreshold: z.number().optional(),
  unknownToolThreshold: z.number().optional(),
  criticalThreshold: z.number().optional(),
  globalCircuitBreakerThreshold: z.number().optional(),
  detectors: z
    .strictObject({ genericRepeat: z.boolean().optional(), knownPollNoProgress: z.boolean().optional(), pingPong: z.boolean().optional() })
    .optional(),
});

/** A workspace-relative path no tool may change (`.git`, `.pincer`, `secrets/`). */
const protectedPath = z.string().superRefine((value, ctx) => {
  const normalized = normalizeProtectedPath(value);
  if ('problem' in normalized) ctx.addIssue({ code: 'custom', message: `protected path "${value}" ${normalized.problem}` });
});

/** `tools.fs`: settings of the file tools' fences. */
export const FsToolsConfigSchema = z.strictObject({
  /** Replaces the default `[".git", ".pincer"]`; the loaded config file is protected regardless. */
  protectedPaths: z.array(protectedPath).optional(),
});

/** `tools.message`: the kernel's `message` tool over the enabled channel plugins. */
export const MessageToolConfigSchema = z.strictObject({
  /** The channel of runs that name none; default: the only enabled channel. */
  defaultChannel: z.string().trim().min(1).optional().describe('The channel of runs that name none; default: the only enabled channel.'),
  /** Let a session send on a channel other than its own, labelled with the source session. Default false. */
  crossSession: z.boolean().optional().describe('Let a session send on a channel other than its own (labelled with the source session). Default false.'),
  /** Largest message body in bytes (default 65536): a larger one is refused before anything is sent. */
  maxBodyBytes: z.number().int().positive().max(4 * 1024 * 1024).optional().describe('Largest message body in bytes (default 65536).'),
});

/** `tools.gateway`: the read-only `gateway` tool (the effective config, redacted, and the config schema). */
export const GatewayToolConfigSchema = z.strictObject({
  /** Offer the tool at all (default false); policy layers still decide per run. */
  enabled: z.boolean().optional().describe('Offer the read-only gateway tool (default false).'),
  /** Largest `config.get` answer in bytes (default 65536); a larger one asks for a narrower `path`. */
  maxResultBytes: z.number().int().positive().max(4 * 1024 * 1024).optional().describe('Largest config.get answer in bytes (default 65536).'),
});

/** `tools` at the top level. */
export const ToolsConfigSchema = ToolPolicyConfigSchema.extend({
  profile: profileId.optional(),
  byProvider: z.record(z.string().min(1), ProviderToolPolicySchema).optional(),
  toolsBySender: SenderPoliciesSchema.optional(),
  sandbox: z.strictObject({ tools: ToolPolicyConfigSchema.optional() }).optional(),
  subagents: z
    .strictObject({ tools: ToolPolicyConfigSchema.optional(), maxSpawnDepth: z.number().int().min(1).optional() })
    .optional(),
  loopDetection: LoopDetectionConfigSchema.optional(),
  fs: FsToolsConfigSchema.optional(),
  /**
   * `sessions_send` to another agent's session: off unless enabled, and then only between
   * agents both listed in `allow` (`*` globs allowed). Sends within one agent need no entry.
   */
  agentToAgent: z.strictObject({ enabled: z.boolean().optional(), allow: z.array(z.string().min(1)).optional() }).optional(),
  /** Large runs: deferrable tools are found through `tool_search` instead of listed. */
  toolSearch: ToolSearchConfigSchema.optional(),
  message: MessageToolConfigSchema.optional().describe('The message tool: default channel, cross-session sends, body size.'),
  gateway: GatewayToolConfigSchema.optional().describe('The read-only gateway tool.'),
});

/** `agents.list[].tools`: the same policy keys, per agent. */
export const AgentToolsConfigSchema = ToolPolicyConfigSchema.extend({
  profile: profileId.optional(),
  byProvider: z.record(z.string().min(1), ProviderToolPolicySchema).optional(),
  sandbox: z.strictObject({ tools: ToolPolicyConfigSchema.optional() }).optional(),
});

/** `groups.<id>`: a channel/space policy, and per-sender policies inside it. */
export const GroupConfigSchema = z.strictObject({
  tools: ToolPolicyConfigSchema.optional(),
  toolsBySender: SenderPoliciesSchema.optional(),
});

export type ToolsConfig = z.infer<typeof ToolsConfigSchema>;
export type AgentToolsConfig = z.infer<typeof AgentToolsConfigSchema>;
export type GroupConfig = z.infer<typeof GroupConfigSchema>;
export type ProviderToolPolicyConfig = z.infer<typeof ProviderToolPolicySchema>;
export type LoopDetectionConfig = z.infer<typeof LoopDetectionConfigSchema>;
export type MessageToolConfig = z.infer<typeof MessageToolConfigSchema>;
export type GatewayToolConfig = z.infer<typeof GatewayToolConfigSchema>;
