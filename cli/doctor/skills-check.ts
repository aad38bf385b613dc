/**
 * The skills each agent's run would get, as the kernel's skills service lists them: one line per
 * source (extra, bundled, managed, personal, project, workspace, and any a plugin contributes)
 * with its count and how it notices changes, then one line per candidate the loader left out for
 * a reason an operator must act on. Nothing here re-reads SKILL.md: it is the loader's answer, so
 * doctor and `pincer skills` can never disagree.
 */
import { basename } from 'node:path';
import type { Kernel, RunSkills, SkillExclusion } from '../kernel.js';
import { FAILING_REASONS } from '../skills/format.js';
import { printable } from '../skills/printable.js';
import { line, type DoctorLine } from './types.js';

type SourceStatus = RunSkills['sources'][number];

function watchWords(source: SourceStatus): { status: DoctorLine['status']; words: string; fix?: string } {
  switch (source.state) {
    case 'current':
      return { status: 'ok', words: 'watched (native file watchers)' };
    case 'unwatched':
      return source.detail === 'fallback'
        ? { status: 'warn', words: 'not watched: no file watch handles left, so it is listed again before each run', fix: 'raise the watch limit (Linux: sysctl fs.inotify.max_user_watches), or stop other watchers' }
        : { status: 'ok', words: 'not watched (skills.load.watch is false): listed again before each run' };
    case 'failed':
      return { status: 'fail', words: `could not be listed: ${source.detail ?? 'unknown error'}`, fix: "run 'pincer plugins' for the skills plugin's state and last error" };
    default:
      return { status: 'warn', words: `${source.state}: its list may be out of date`, fix: "run 'pincer skills check'" };
  }
}

const nameOf = (e: SkillExclusion) => e.name ?? basename(e.path);

function linesOf(skills: RunSkills, who: string): DoctorLine[] {
  const lines: DoctorLine[] = [];
  for (const source of skills.sources) {
    const count = skills.skills.filter((s) => s.source === source.label).length;
    const excluded = skills.excluded.filter((e) => e.source === source.label).length;
    const watch = watchWords(source);
    const listed = source.state === 'failed' ? '' : `${count} skill(s)${excluded ? `, ${excluded} excluded` : ''}; `;
    lines.push(line('skills', `${source.label}${who}`, watch.status, `${listed}${watch.words}`, watch.fix));
  }
  for (const e of skills.excluded.filter((x) => FAILING_REASONS.has(x.reason))) {
    lines.push(line('skills', printable(`${e.source}: ${nameOf(e)}`), 'warn', printable(`excluded (${e.reason}): ${e.detail}`), `see 'pincer skills show ${printable(nameOf(e))}'; fix or remove ${printable(e.path)}`));
  }
  for (const s of skills.skills.filter((x) => x.findings?.some((f) => f.severity === 'critical'))) {
    lines.push(line('skills', printable(`${s.source}: ${s.name}`), 'warn', 'listed with a critical scanner finding', `see 'pincer skills show ${printable(s.name)}'`));
  }
  return lines;
}

/** Refreshes every agent's skill sources on a started kernel and reports each, per agent when there are several. */
export async function checkSkills(kernel: Kernel, agentIds: readonly string[]): Promise<DoctorLine[]> {
  const service = kernel.skills;
  if (!service) return [line('skills', 'sources', 'skip', 'this kernel has no skills service')];
  await service.refresh();
  const agents = agentIds.length > 0 ? agentIds : [undefined];
  const lines = agents.flatMap((agentId) => {
    const who = agents.length > 1 ? ` (agent ${agentId})` : '';
    try {
      return linesOf(service.forRun(agentId === undefined ? {} : { agentId }), who);
    } catch (error) {
      return [line('skills', `sources${who}`, 'fail', `cannot list the skills: ${(error as Error).message}`, "run 'pincer skills check'")];
    }
  });
  return lines.length ? lines : [line('skills', 'sources', 'skip', 'no plugin contributes a skill source (the bundled "skills" plugin is not configured)')];
}
