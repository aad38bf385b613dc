/** Text for `pincer skills list | show | check`. */
import type { Colors } from '../format/color.js';
import { renderTable } from '../format/table.js';
import { printable, printableDeep } from './printable.js';
import type { RunSkill, RunSkills, SkillExclusion } from '../kernel.js';

type Finding = NonNullable<RunSkill['findings']>[number];

function findingLine(f: Finding, c: Colors): string {
  const severity = f.severity === 'critical' ? c.red(f.severity) : f.severity === 'warn' ? c.yellow(f.severity) : f.severity;
  return `${severity} ${f.ruleId} at ${f.file}:${f.line}: ${f.message}${f.evidence ? ` (${f.evidence})` : ''}`;
}

const invocation = (s: RunSkill) => [s.modelInvocable ? 'model' : '', s.userInvocable ? (s.commandTool ? `/command → ${s.commandTool}` : '/command') : ''].filter(Boolean).join(', ');

/** Every formatter shows untrusted text (names, paths, scanned lines) through `printableDeep`. */
export function formatSkillList(raw: RunSkills, who: string, c: Colors, width?: number): string {
  const skills = printableDeep(raw);
  const lines = [`${c.bold(String(skills.skills.length))} skills for ${who} (snapshot ${skills.version}${skills.current ? '' : ', ' + c.yellow('may not be current')})`];
  if (skills.skills.length > 0) {
    const rows = skills.skills.map((s) => [s.name, s.source, s.version ?? '-', invocation(s), s.location]);
    lines.push('', renderTable([{ header: 'NAME' }, { header: 'SOURCE' }, { header: 'VERSION' }, { header: 'USE' }, { header: 'LOCATION' }], rows, { width, headerStyle: c.bold }));
  }
  if (skills.excluded.length > 0) lines.push('', `${skills.excluded.length} skill(s) or candidates excluded: run 'pincer skills check' to see why.`);
  for (const warning of skills.warnings) lines.push(c.yellow(`warning: ${warning}`));
  return lines.join('\n');
}

export function formatSkill(raw: RunSkill, c: Colors): string {
  const skill = printableDeep(raw);
  const lines = [
    `${c.bold(skill.name)} (${skill.source})`,
    `  description: ${skill.description}`,
    `  location:    ${skill.location}`,
    `  version:     ${skill.version ?? '(none)'}`,
    `  use:         ${invocation(skill) || 'none'}`,
  ];
  for (const w of skill.warnings ?? []) lines.push(`  ${c.yellow('warning')}: ${w}`);
  for (const f of skill.findings ?? []) lines.push(`  ${findingLine(f, c)}`);
  return lines.join('\n');
}

export function formatExclusion(raw: SkillExclusion, c: Colors): string {
  const e = printableDeep(raw);
  const lines = [`${c.bold(e.name ?? e.path)} (${e.source}) ${c.red('excluded')}: ${e.reason}`, `  ${e.detail}`];
  if (e.name) lines.push(`  path: ${e.path}`);
  for (const f of e.findings ?? []) lines.push(`  ${findingLine(f, c)}`);
  return lines.join('\n');
}

/** Problems `check` fails on: sources that could not be listed, broken or unsafe skills. */
export const FAILING_REASONS = new Set(['invalid-frontmatter', 'missing-description', 'invalid-name', 'invalid-entry', 'binary-file', 'file-too-large', 'unreadable', 'not-a-file', 'critical-finding', 'symlink-escape', 'path-escape', 'bundled-symlink-escape', 'bundled-root-escape', 'symlink-loop']);

export function checkProblems(skills: RunSkills): number {
  const critical = skills.skills.filter((s) => s.findings?.some((f) => f.severity === 'critical')).length;
  const failing = skills.excluded.filter((e) => FAILING_REASONS.has(e.reason)).length;
  // Just refreshed: an unwatched source is current now; one that failed or was never listed is not.
  const sources = skills.sources.filter((s) => s.state === 'failed' || s.state === 'unlisted').length;
  return sources + critical + failing;
}

export function formatCheck(raw: RunSkills, who: string, c: Colors): string {
  const skills = printableDeep(raw);
  const lines = [`Skills check for ${who}: ${skills.skills.length} available, ${skills.excluded.length} excluded, ${skills.collisions.length} overridden.`];
  if (skills.warnings.length) lines.push('', c.bold('Sources and budget'), ...skills.warnings.map((w) => `  ${c.yellow('warning')}: ${w}`));
  if (skills.excluded.length) lines.push('', c.bold('Excluded'), ...skills.excluded.map((e) => formatExclusion(e, c)));
  if (skills.collisions.length) {
    lines.push('', c.bold('Overridden (the higher source wins)'));
    for (const x of skills.collisions) lines.push(`  ${x.name}: ${x.winner.source} ${x.winner.path} overrides ${x.shadowed.source} ${x.shadowed.path}`);
  }
  const noted = skills.skills.filter((s) => s.findings?.length || s.warnings?.length);
  if (noted.length) lines.push('', c.bold('Available, with findings or warnings'), ...noted.map((s) => formatSkill(s, c)));
  const problems = checkProblems(skills);
  lines.push('', problems === 0 ? c.green('No problems found.') : c.red(`${problems} problem(s) need attention.`));
  return lines.join('\n');
}

export function formatProposal(raw: { state: string; name?: string; findings: Finding[] }, rawDir: string, c: Colors): string {
  const verdict = printableDeep(raw);
  const dir = printable(rawDir);
  const head = verdict.state === 'clean' ? c.green('clean') : c.red('failed');
  return [`Proposal ${verdict.name ?? dir}: ${head}`, ...verdict.findings.map((f) => `  ${findingLine(f, c)}`)].join('\n');
}
