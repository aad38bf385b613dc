/**
 * Discovery limits of a skill source (SPEC §6.2, config `skills.limits.*`). Every limit that
 * stops a scan leaves a skip with its reason, so an operator sees what was not looked at.
 */
export interface SkillDiscoveryLimits {
  /** Skill directories considered per root. */
  maxCandidatesPerRoot: number;
  /** Skills listed per source (after every other check). */
  maxSkillsLoadedPerSource: number;
  /** Largest SKILL.md read. */
  maxSkillFileBytes: number;
  /** Directory levels searched below a root for grouped skills (`root/group/skill/SKILL.md`). */
  maxDepth: number;
}

export const DEFAULT_SKILL_LIMITS: Readonly<SkillDiscoveryLimits> = Object.freeze({
  maxCandidatesPerRoot: 300,
  maxSkillsLoadedPerSource: 200,
  maxSkillFileBytes: 256_000,
  maxDepth: 6,
});

/** Operator-configured extra directories are searched less deeply. */
export const CONFIGURED_ROOT_DEPTH = 2;

/** Entries read from one directory: clamp(candidates × 10, 1 000, 10 000). */
export function directoryEntryBudget(limits: SkillDiscoveryLimits): number {
  return Math.min(10_000, Math.max(1_000, limits.maxCandidatesPerRoot * 10));
}

export function resolveSkillLimits(overrides: Partial<SkillDiscoveryLimits> = {}): SkillDiscoveryLimits {
  const pick = (key: keyof SkillDiscoveryLimits) => {
    const value = overrides[key];
    return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : DEFAULT_SKILL_LIMITS[key];
  };
  return { maxCandidatesPerRoot: pick('maxCandidatesPerRoot'), maxSkillsLoadedPerSource: pick('maxSkillsLoadedPerSource'), maxSkillFileBytes: pick('maxSkillFileBytes'), maxDepth: pick('maxDepth') };
}
