import { z } from 'zod';
import { defineNotification, defineRequest } from '../define.js';

/** A skill source a plugin contributes; lower `rank` = higher precedence. @since 1 */
export const SkillSourceContribution = z.object({ label: z.string().min(1), rank: z.number().int() });
export type SkillSourceContribution = z.infer<typeof SkillSourceContribution>;

/** One skill directory (holding SKILL.md). @since 1 */
export const SkillEntry = z.object({
  name: z.string(),
  /** Directory containing SKILL.md, as a host path. */
  dir: z.string(),
  description: z.string().optional(),
  version: z.string().optional(),
});
export type SkillEntry = z.infer<typeof SkillEntry>;

/** @since 1 */
export const SkillsListResult = z.object({
  /** Changes whenever the list or any skill changes; the kernel refreshes by version. */
  version: z.string(),
  skills: z.array(SkillEntry),
});
export type SkillsListResult = z.infer<typeof SkillsListResult>;

/** Lists the skills of one of the plugin's sources. @since 1 */
export const SkillsList = defineRequest('skills/list', z.object({ label: z.string() }), SkillsListResult, {
  direction: 'kernel-to-plugin',
  since: 1,
  doc: 'Lists the skill directories of one contributed skill source, with a version for cheap refresh.',
});

/** Plugin → kernel: a source's version changed; the kernel re-lists it. @since 1 */
export const SkillsListChanged = defineNotification('skills/listChanged', z.object({ label: z.string(), version: z.string() }), {
  direction: 'plugin-to-kernel',
  since: 1,
  doc: 'A skill source changed; the kernel calls skills/list again when the version differs.',
});
