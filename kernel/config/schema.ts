/**
 * The whole Pincer config file (`pincer.config.json`): plugins, agents, tool policy,
 * groups, session and sandbox settings.
 */
import * as z from 'zod';
import { AgentToolsConfigSchema, GroupConfigSchema, ToolsConfigSchema } from './tools-schema.js';
import { PluginConfigSchema } from '../host/config.js';
import { ConfinementConfigSchema } from '../confine/config.js';
import { AuditConfigSchema } from '../audit/config.js';
import { McpConfigSchema } from '../../protocol/v1/mcp-config.js';

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

/** One plugin: the host's schema, so config is checked once, with the host's own rules. */
export { PluginConfigSchema };

const PositiveInt = z.number().int().positive();

/** `skills`: where skills are found, the discovery and prompt limits, and per-skill switches. */
export const SkillsConfigSchema = z.strictObject({
  load: z
    .strictObject({
      /** Extra skill directories (lowest precedence); relative paths resolve against the config file's folder. */
      extraDirs: z.array(z.string().min(1)).optional(),
      /** Directories that workspace, project and extra skills may be symlinks into. */
      allowSymlinkTargets: z.array(z.string().min(1)).optional(),
      /** Watch skill directories for changes (default true). */
      watch: z.boolean().optional(),
    })
    .optional(),
  limits: z
    .strictObject({
      maxCandidatesPerRoot: PositiveInt.optional(),
      maxSkillsLoadedPerSource: PositiveInt.optional(),
      maxSkillFileBytes: PositiveInt.optional(),
      maxSkillsInPrompt: PositiveInt.optional(),
      maxSkillsPromptChars: PositiveInt.optional(),
    })
    .optional(),
  /** Per skill (by its skillKey, default its name): `enabled: false` keeps it from every agent. */
  entries: z.record(z.string().min(1), z.strictObject({ enabled: z.boolean().optional() })).optional(),
});

export const AgentConfigSchema = z.strictObject({
  id: z.string().trim().min(1),
  default: z.boolean().optional(),
  /** Plugin ids enabled for this agent; absent = every configured plugin. */
  plugins: z.array(z.string().min(1)).optional(),
  workspace: z.string().min(1).optional(),
  tools: AgentToolsConfigSchema.optional(),
  sandbox: SandboxConfigSchema.optional(),
  /** The skills this agent may use (names or skill keys); absent = every eligible skill. */
  skills: z.array(z.string().trim().min(1)).optional(),
});

export const PincerConfigSchema = z.strictObject({
  $schema: z.string().optional(),
  plugins: z.array(PluginConfigSchema).optional(),
  tools: ToolsConfigSchema.optional(),
  groups: z.record(z.string().min(1), GroupConfigSchema).optional(),
  skills: SkillsConfigSchema.optional(),
  agents: z
    .strictObject({
      defaults: z
        .strictObject({
          sandbox: SandboxConfigSchema.optional(),
          plugins: z.array(z.string().min(1)).optional(),
          workspace: z.string().min(1).optional(),
          skills: z.array(z.string().trim().min(1)).optional(),
        })
        .optional(),
      list: z.array(AgentConfigSchema).optional(),
    })
    .optional(),
  session: z
    .strictObject({
      // One segment: a group's key (`agent:<a>:group:<g>`) can then never equal the main one.
      mainKey: z.string().trim().min(1).regex(/^[^:]+$/, 'session.mainKey is one segment (no ":"), so no group or channel session can be the main one').optional(),
      scope: z.enum(['per-sender', 'global']).optional(),
    })
    .optional(),
  /**
   * Which plugin serves a sandbox backend id, when it is not the bundled one (`local` →
   * `sandbox-local`, `docker` → `sandbox-docker`, `ssh` → `sandbox-ssh`) or when several
   * enabled plugins declare the same id.
   */
  backendPlugins: z.record(z.string().trim().min(1), z.string().min(1)).optional(),
  /** How plugins that declare confinement are sandboxed, and what happens where bubblewrap cannot run. */
  confinement: ConfinementConfigSchema.optional(),
  /** MCP servers whose tools the MCP bridge plugin serves (`<server>__<tool>`, plugin id `bundle-mcp`). */
  mcp: McpConfigSchema.optional(),
  /** The kernel's audit trail of decisions: on by default in the state directory. */
  audit: AuditConfigSchema.optional(),
});

/** Config as written (host defaults not yet filled in); the host applies its defaults itself. */
export type PincerConfig = z.input<typeof PincerConfigSchema>;
export type PluginConfig = z.input<typeof PluginConfigSchema>;
export type AgentConfig = z.input<typeof AgentConfigSchema>;
export type SandboxConfig = z.input<typeof SandboxConfigSchema>;
export type SandboxMode = z.infer<typeof SandboxModeSchema>;
export type SkillsConfig = z.input<typeof SkillsConfigSchema>;
