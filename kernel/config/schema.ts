/**
 * The whole Pincer config file (`pincer.config.json`): plugins, agents, tool policy,
 * groups, session and sandbox settings.
 */
import { z } from 'zod';
import { AgentToolsConfigSchema, GroupConfigSchema, ToolsConfigSchema } from './tools-schema.js';

export const SandboxModeSchema = z.enum(['off', 'non-main', 'all']);

/** Sandbox settings; backend-specific keys (docker, ssh) are validated by the backend plugin. */
export const SandboxConfigSchema = z.strictObject({
  mode: SandboxModeSchema.optional(),
  backend: z.string().trim().min(1).optional(),
  scope: z.enum(['session', 'agent', 'shared']).optional(),
  workspaceAccess: z.enum(['rw', 'ro', 'none']).optional(),
  docker: z.record(z.string(), z.unknown()).optional(),
  ssh: z.record(z.string(), z.unknown()).optional(),
});

/** One plugin: a command (argv) or a JS module run with the kernel's node. */
export const PluginConfigSchema = z
  .strictObject({
    id: z.string().trim().min(1),
    command: z.array(z.string().min(1)).min(1).optional(),
    module: z.string().min(1).optional(),
    manifest: z.string().min(1).optional(),
    transport: z.enum(['fd3', 'stdio']).optional(),
    env: z.record(z.string(), z.string()).optional(),
    settings: z.record(z.string(), z.unknown()).optional(),
    required: z.boolean().optional(),
    lazy: z.boolean().optional(),
    timeouts: z
      .strictObject({ handshakeMs: z.number().positive().optional(), callMs: z.number().positive().optional(), maxCallMs: z.number().positive().optional() })
      .optional(),
  })
  .refine((plugin) => Boolean(plugin.command) !== Boolean(plugin.module), { message: 'give exactly one of "command" or "module"' });

export const AgentConfigSchema = z.strictObject({
  id: z.string().trim().min(1),
  default: z.boolean().optional(),
  /** Plugin ids enabled for this agent; absent = every configured plugin. */
  plugins: z.array(z.string().min(1)).optional(),
  workspace: z.string().min(1).optional(),
  tools: AgentToolsConfigSchema.optional(),
  sandbox: SandboxConfigSchema.optional(),
});

export const PincerConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  plugins: z.array(PluginConfigSchema).optional(),
  tools: ToolsConfigSchema.optional(),
  groups: z.record(z.string().min(1), GroupConfigSchema).optional(),
  agents: z
    .strictObject({
      defaults: z.strictObject({ sandbox: SandboxConfigSchema.optional(), plugins: z.array(z.string().min(1)).optional(), workspace: z.string().min(1).optional() }).optional(),
      list: z.array(AgentConfigSchema).optional(),
    })
    .optional(),
  session: z.strictObject({ mainKey: z.string().trim().min(1).optional(), scope: z.enum(['per-sender', 'global']).optional() }).optional(),
});

export type PincerConfig = z.infer<typeof PincerConfigSchema>;
export type PluginConfig = z.infer<typeof PluginConfigSchema>;
export type AgentConfig = z.infer<typeof AgentConfigSchema>;
export type SandboxConfig = z.infer<typeof SandboxConfigSchema>;
export type SandboxMode = z.infer<typeof SandboxModeSchema>;
