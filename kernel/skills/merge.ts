/**
 * Merges the lists of a run's skill sources by precedence: sources in ascending rank, a later
 * (higher) source replacing an earlier one's skill of the same name, each replacement
 * recorded with both paths. Entries are re-checked here, because a source is a plugin and the
 * prompt is the kernel's: a name no file system or prompt can carry safely is left out.
 */
import { isAbsolute, join } from 'node:path';
import type { SkillEntry, SkillsListResult } from '../../protocol/index.js';
import type { MergedSkill, SkillCollision, SkillExclusion } from './types.js';

export interface ListedSource {
  pluginId: string;
  label: string;
  rank: number;
  result?: SkillsListResult;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const VERSION = /^sha256:[0-9a-f]{16}$/;
const MAX_NAME = 200;

function problemOf(entry: SkillEntry): string | undefined {
  if (entry.name.trim() === '' || entry.name !== entry.name.trim()) return 'the name is empty or has surrounding whitespace';
  if (CONTROL.test(entry.name)) return 'the name contains a control character';
  if (/[/\\]/.test(entry.name) || entry.name.length > MAX_NAME) return 'the name contains a path separator or is too long';
  if (!entry.description?.trim()) return 'description is required';
  // The path is shown to the model and to operators: a line break would start a line of its own.
  if (CONTROL.test(entry.dir)) return 'the skill directory path contains a control character';
  if (!isAbsolute(entry.dir) || entry.dir === '/') return `the skill directory "${entry.dir}" is not an absolute path below the root`;
  return undefined;
}

export interface MergeResult {
  skills: MergedSkill[];
  collisions: SkillCollision[];
  excluded: SkillExclusion[];
}

export function mergeSkills(sources: readonly ListedSource[]): MergeResult {
  const byName = new Map<string, MergedSkill>();
  const collisions: SkillCollision[] = [];
  const excluded: SkillExclusion[] = [];
  const ordered = sources.map((source, index) => ({ source, index })).sort((a, b) => a.source.rank - b.source.rank || a.index - b.index);
  for (const { source } of ordered) {
    for (const skip of source.result?.skipped ?? []) excluded.push({ ...(skip.name ? { name: skip.name } : {}), source: source.label, path: skip.path, reason: skip.reason, detail: skip.detail, ...(skip.findings ? { findings: skip.findings } : {}) });
    for (const entry of source.result?.skills ?? []) {
      const problem = problemOf(entry);
      if (problem) {
        excluded.push({ name: entry.name, source: source.label, path: entry.dir, reason: 'invalid-entry', detail: problem });
        continue;
      }
      // SKILL.md must sit directly in the skill directory: a source cannot point the index elsewhere.
      const file = join(entry.dir, 'SKILL.md');
      const skill: MergedSkill = { ...entry, version: entry.version && VERSION.test(entry.version) ? entry.version : undefined, file, source: source.label, rank: source.rank, pluginId: source.pluginId };
      const earlier = byName.get(entry.name);
      if (earlier) collisions.push({ name: entry.name, winner: { source: source.label, path: entry.dir }, shadowed: { source: earlier.source, path: earlier.dir } });
      byName.set(entry.name, skill);
    }
  }
  return { skills: [...byName.values()], collisions, excluded };
}
