/**
 * The six filesystem skill sources (SPEC §6.2), lowest precedence first. A plugin contributing
 * its own skill directories uses the extra rank, below everything the user placed.
 */
export const SKILL_SOURCES = Object.freeze({
  extra: { label: 'pincer-extra', rank: 100 },
  bundled: { label: 'pincer-bundled', rank: 200 },
  managed: { label: 'pincer-managed', rank: 300 },
  personal: { label: 'agents-skills-personal', rank: 400 },
  project: { label: 'agents-skills-project', rank: 500 },
  workspace: { label: 'pincer-workspace', rank: 600 },
} as const);

export type SkillSourceKind = keyof typeof SKILL_SOURCES;
