import * as z from 'zod';
import { defineNotification, defineRequest } from '../define.js';
import { lazySchema } from '../lazy-schema.js';

/**
 * A skill source a plugin contributes. `rank` is its precedence: on a name collision the
 * source with the higher rank wins (the bundled sources use 100 extra, 200 bundled,
 * 300 managed, 400 personal, 500 project, 600 workspace). A `workspace` source lists
 * different skills per workspace, so `skills/list` names one.
 * @since 1
 */
export const SkillSourceContribution = lazySchema(() => z.object({
  label: z.string().min(1),
  rank: z.number().int(),
  scope: z.enum(['global', 'workspace']).default('global'),
}));
export type SkillSourceContribution = z.output<typeof SkillSourceContribution>;

/** One scanner finding on a skill's files. @since 1 */
export const SkillFinding = lazySchema(() => z.object({
  ruleId: z.string(),
  severity: z.enum(['info', 'warn', 'critical']),
  /** Path relative to the skill directory. */
  file: z.string(),
  line: z.number().int().nonnegative(),
  message: z.string(),
  evidence: z.string(),
}));
export type SkillFinding = z.infer<typeof SkillFinding>;

/** An install recipe that passed the install-spec filter. @since 1 */
export const SkillInstallSpec = lazySchema(() => z.looseObject({
  kind: z.enum(['brew', 'node', 'go', 'uv', 'download']),
  id: z.string().optional(),
  label: z.string().optional(),
  bins: z.array(z.string()).optional(),
  os: z.array(z.string()).optional(),
}));
export type SkillInstallSpec = z.infer<typeof SkillInstallSpec>;

/** The `metadata` manifest of a SKILL.md (requirements, install recipes, config key). @since 1 */
export const SkillManifest = lazySchema(() => z.object({
  always: z.boolean().optional(),
  emoji: z.string().optional(),
  homepage: z.string().optional(),
  /** Key for `skills.entries.<key>`; defaults to the skill name. */
  skillKey: z.string().optional(),
  primaryEnv: z.string().optional(),
  os: z.array(z.string()).optional(),
  requires: z
    .object({
      bins: z.array(z.string()).default([]),
      anyBins: z.array(z.string()).default([]),
      env: z.array(z.string()).default([]),
      config: z.array(z.string()).default([]),
    })
    .optional(),
  install: z.array(SkillInstallSpec).optional(),
}));
export type SkillManifest = z.output<typeof SkillManifest>;

/** One skill directory (holding SKILL.md). @since 1 */
export const SkillEntry = lazySchema(() => z.object({
  name: z.string(),
  /** Directory containing SKILL.md, as a canonical host path. */
  dir: z.string(),
  /** The SKILL.md file (host path); defaults to `<dir>/SKILL.md`. */
  file: z.string().optional(),
  description: z.string().optional(),
  /** Content version of SKILL.md: `sha256:` and 16 lowercase hex digits. */
  version: z.string().optional(),
  /** A user may run it as a slash command (default true). */
  userInvocable: z.boolean().optional(),
  /** Left out of the model's skill index (default false). */
  disableModelInvocation: z.boolean().optional(),
  /** The slash command is bound to a tool instead of the model. */
  command: z.object({ dispatch: z.literal('tool'), tool: z.string().min(1), argMode: z.literal('raw').default('raw') }).optional(),
  manifest: SkillManifest.optional(),
  /** Required binaries not found on the source's PATH (`anyBins` reported as `a|b`). */
  missingBins: z.array(z.string()).optional(),
  /** Scanner findings that did not exclude the skill. */
  findings: z.array(SkillFinding).optional(),
  /** Problems that did not exclude the skill (naming rules, dropped install specs). */
  warnings: z.array(z.string()).optional(),
}));
export type SkillEntry = z.infer<typeof SkillEntry>;

/** A candidate the source did not list, and why. @since 1 */
export const SkillSkip = lazySchema(() => z.object({
  path: z.string(),
  /** The skill's name, when it was read before the skip (a duplicate, a critical finding, a source limit). */
  name: z.string().optional(),
  /** Machine-readable reason (`invalid-frontmatter`, `symlink-escape`, `critical-finding`, ...). */
  reason: z.string(),
  /** What an operator reads. */
  detail: z.string(),
  findings: z.array(SkillFinding).optional(),
}));
export type SkillSkip = z.infer<typeof SkillSkip>;

/** Discovery settings the kernel passes from its config (`skills.load`, `skills.limits`). @since 1 */
export const SkillsLoadOptions = lazySchema(() => z.object({
  extraDirs: z.array(z.string()).optional(),
  allowSymlinkTargets: z.array(z.string()).optional(),
  watch: z.boolean().optional(),
  limits: z
    .object({
      maxCandidatesPerRoot: z.number().int().positive().optional(),
      maxSkillsLoadedPerSource: z.number().int().positive().optional(),
      maxSkillFileBytes: z.number().int().positive().optional(),
    })
    .optional(),
}));
export type SkillsLoadOptions = z.infer<typeof SkillsLoadOptions>;

/** @since 1 */
export const SkillsListParams = lazySchema(() => z.object({
  label: z.string(),
  /** The workspace (host path) for a `workspace`-scoped source. */
  workspaceDir: z.string().optional(),
  load: SkillsLoadOptions.optional(),
}));
export type SkillsListParams = z.infer<typeof SkillsListParams>;

/** @since 1 */
export const SkillsListResult = lazySchema(() => z.object({
  /** Changes whenever the list or any skill changes; the kernel refreshes by version. */
  version: z.string(),
  skills: z.array(SkillEntry),
  skipped: z.array(SkillSkip).default([]),
  /**
   * How the source notices changes: `native` (file watchers; a change sends
   * `skills/listChanged`), `fallback` (no watch handles left: list again before each run),
   * `off` (watching disabled).
   */
  watch: z.enum(['native', 'fallback', 'off']).optional(),
}));
export type SkillsListResult = z.output<typeof SkillsListResult>;

/** Lists the skills of one of the plugin's sources. @since 1 */
export const SkillsList = defineRequest('skills/list', SkillsListParams, SkillsListResult, {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Lists the skill directories of one contributed skill source (for one workspace when the source is workspace-scoped), with a version for cheap refresh, the candidates skipped and why, and how the source watches for changes.',
});

/** @since 1 */
export const SkillsListChangedParams = lazySchema(() => z.object({ label: z.string(), version: z.string(), workspaceDir: z.string().optional() }));
export type SkillsListChangedParams = z.infer<typeof SkillsListChangedParams>;

/** Plugin → kernel: a source's version changed; the kernel re-lists it. @since 1 */
export const SkillsListChanged = defineNotification('skills/listChanged', SkillsListChangedParams, {
  direction: 'plugin-to-kernel',
  since: 1,
  doc: 'A skill source changed (for one workspace when `workspaceDir` is set); the kernel calls skills/list again when the version differs.',
});
