/** What the kernel knows about skills, and what a run sees of them. */
import type { SkillEntry, SkillFinding } from '../../protocol/index.js';
import type { SourceStatus } from './catalog.js';

export type { SourceStatus };

/** One skill after the merge: the entry with the source that won. */
export interface MergedSkill extends SkillEntry {
  /** The source's label (`pincer-workspace`, ...). */
  source: string;
  rank: number;
  pluginId: string;
  /** SKILL.md on the host. */
  file: string;
}

/** Two sources listed the same name: the higher rank won. */
export interface SkillCollision {
  name: string;
  winner: { source: string; path: string };
  shadowed: { source: string; path: string };
}

/** A skill (or candidate) this run does not get, and why. */
export interface SkillExclusion {
  name?: string;
  source: string;
  path: string;
  /** `invalid-frontmatter`, `critical-finding`, `ineligible`, `outside-sandbox`, ... */
  reason: string;
  detail: string;
  findings?: SkillFinding[];
}

/** One skill as a run sees it. */
export interface RunSkill {
  name: string;
  description: string;
  /** Where the session's tools read its SKILL.md (a sandbox path when sandboxed). */
  location: string;
  /** `sha256:` + 16 hex of SKILL.md. */
  version?: string;
  source: string;
  /** In the model's index (false with `disable-model-invocation`). */
  modelInvocable: boolean;
  userInvocable: boolean;
  /** A slash command bound to a tool. */
  commandTool?: string;
  findings?: SkillFinding[];
  warnings?: string[];
}

/** The skills of one run: the model's index text and the structured list. */
export interface RunSkills {
  /** The index block for the system prompt ('' when no skill is model-invocable). */
  readonly prompt: string;
  /** Every skill this run may use (eligible and visible in its sandbox). */
  readonly skills: readonly RunSkill[];
  /** Skills (or candidates) left out, each with its reason. */
  readonly excluded: readonly SkillExclusion[];
  readonly collisions: readonly SkillCollision[];
  /** The snapshot version: a different value means something changed. */
  readonly version: number;
  /** Each source the run uses, and how current its list is. */
  readonly sources: readonly SourceStatus[];
  /**
   * False when the list may not be current: a source failed or was never listed
   * (call `kernel.skills.refresh()`), or is not watched and must be listed again before each run.
   */
  readonly current: boolean;
  /** Why `current` is false, and budget warnings. */
  readonly warnings: readonly string[];
}
