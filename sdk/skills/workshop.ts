/**
 * The workshop gate for a proposed skill (SPEC §6.5): before a skill written by an agent (or
 * anyone) is accepted, its directory must be a valid skill and pass the scanner with the
 * workshop's prompt-injection rules added. Any critical finding fails the proposal.
 */
import { readSkillFile } from './discovery/read-skill-file.js';
import { readSkillFields } from './frontmatter/fields.js';
import { parseFrontmatter } from './frontmatter/parse.js';
import { basename } from 'node:path';
import { DEFAULT_SKILL_LIMITS } from './limits.js';
import { hasCritical, type SkillFinding } from './scanner/findings.js';
import { scanSkillDirectory } from './scanner/scan-directory.js';
import { nodeSkillFs, type SkillFs } from './skill-fs.js';

export interface WorkshopVerdict {
  state: 'clean' | 'failed';
  /** The skill's name, when its SKILL.md is valid. */
  name?: string;
  findings: SkillFinding[];
}

const invalid = (message: string): SkillFinding => ({ ruleId: 'invalid-skill', severity: 'critical', file: 'SKILL.md', line: 0, message, evidence: '' });

/** Judges a proposed skill directory (its canonical path). */
export async function checkSkillProposal(dir: string, fs: SkillFs = nodeSkillFs): Promise<WorkshopVerdict> {
  const findings: SkillFinding[] = [];
  let name: string | undefined;
  const file = await readSkillFile(fs, dir, DEFAULT_SKILL_LIMITS.maxSkillFileBytes);
  if (!file.ok) findings.push(invalid(`SKILL.md: ${file.detail}`));
  else {
    const parsed = parseFrontmatter(file.text);
    const fields = parsed.ok ? readSkillFields(parsed.data, basename(dir)) : undefined;
    if (!parsed.ok) findings.push(invalid(`invalid frontmatter: ${parsed.code}: ${parsed.message}`));
    else if (fields && !fields.ok) findings.push(invalid(fields.detail));
    else if (fields?.ok) name = fields.fields.name;
  }
  findings.push(...(await scanSkillDirectory(dir, { fs, workshop: true })));
  return { state: hasCritical(findings) ? 'failed' : 'clean', ...(name ? { name } : {}), findings };
}
