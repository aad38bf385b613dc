/** `pincer skills list | show NAME | check [--proposal DIR]`: the operator's view of a run's skills. */
import { realpathSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { RUN_FLAGS_HELP, RUN_OPTIONS, expectPositionals, parseFlags, runContextFrom, runOpenOptions } from '../args.js';
import { out, outJson, terminalWidth, type CliContext, type Command } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { describeRun } from '../format/tools-report.js';
import { suggestNames } from '../format/suggest.js';
import type { RunContext, RunSkills, SkillExclusion } from '../kernel.js';
import { assembleRun, withKernel } from '../kernel-session.js';
import { printable } from '../skills/printable.js';
import { checkProblems, formatCheck, formatExclusion, formatProposal, formatSkill, formatSkillList } from '../skills/format.js';

const nameOf = (e: SkillExclusion): string => e.name ?? basename(e.path);

const OPTIONS = { ...RUN_OPTIONS, proposal: { type: 'string' } } as const;

const HELP = `Usage: pincer skills list [run flags] [--json]
       pincer skills show NAME [run flags] [--json]
       pincer skills check [run flags] [--json]
       pincer skills check --proposal DIR [--json]

list    the skills a run gets: source, content version, how it can be used
        (by the model through the prompt index, as a /command), and where its
        SKILL.md is as the run's tools see it.
show    one skill in full, or why it is excluded (scanner findings with rule,
        file and line; unmet requirements; the sandbox; the agent's list).
check   every excluded candidate with its reason, overridden skills with both
        paths, scanner findings and source problems. Exit status 1 when a
        source failed, a skill is broken or unsafe, or a critical finding exists.
check --proposal DIR
        the workshop gate for a proposed skill directory: valid SKILL.md, and
        the scanner with the prompt-injection rules; any critical finding
        fails it (exit status 1). Needs no config.

${RUN_FLAGS_HELP}

Examples:
  pincer skills list --agent support
  pincer skills show deploy --json
  pincer skills check --proposal ./skills/release-notes`;

async function runSkills(ctx: CliContext, values: Parameters<typeof runContextFrom>[0], command: string, fn: (skills: RunSkills, who: string) => number): Promise<number> {
  const run: RunContext = runContextFrom(values);
  return withKernel(ctx, runOpenOptions(command, values), async (session) => {
    const kernelSkills = session.kernel.skills;
    if (!kernelSkills) throw new CliError('KERNEL', 'this kernel has no skills service');
    const toolSet = assembleRun(ctx, session, run);
    await kernelSkills.refresh(run);
    return fn(kernelSkills.forRun(run), describeRun(run, toolSet));
  });
}

async function checkProposal(ctx: CliContext, dir: string, json: boolean | undefined): Promise<number> {
  let real: string;
  try {
    real = realpathSync(resolve(ctx.cwd, dir));
    if (!statSync(real).isDirectory()) throw new Error('not a directory');
  } catch (cause) {
    throw usageError(`--proposal ${dir}: not a readable directory (${(cause as Error).message})`, 'skills');
  }
  const { checkSkillProposal } = await import('../../sdk/skills/index.js');
  const verdict = await checkSkillProposal(real);
  if (json) outJson(ctx, { proposal: real, ...verdict });
  else out(ctx, formatProposal(verdict, real, ctx.colors));
  return verdict.state === 'clean' ? 0 : 1;
}

export const skillsCommand: Command = {
  name: 'skills',
  summary: 'List, show and check the skills a run gets; gate proposed skills',
  help: HELP,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('skills', argv, OPTIONS);
    const [sub, ...rest] = positionals;
    if (sub === undefined) throw usageError("'pincer skills' needs a subcommand: list, show or check", 'skills');
    if (values.proposal !== undefined && sub !== 'check') throw usageError(`flag '--proposal' applies only to 'pincer skills check'`, 'skills');
    switch (sub) {
      case 'list':
        expectPositionals('skills list', rest, 0, 0, 'no arguments');
        return runSkills(ctx, values, 'skills', (skills, who) => {
          if (values.json) outJson(ctx, { run: who, ...skills, excluded: skills.excluded.length });
          else out(ctx, formatSkillList(skills, who, ctx.colors, terminalWidth(ctx)));
          return 0;
        });
      case 'show': {
        expectPositionals('skills show', rest, 1, 1, 'a skill NAME');
        const name = rest[0];
        return runSkills(ctx, values, 'skills', (skills) => {
          const skill = skills.skills.find((s) => s.name === name);
          // A candidate skipped before its name was read (bad frontmatter, an unreadable file) goes by its directory's.
          const excluded = skills.excluded.filter((e) => nameOf(e) === name);
          if (values.json) outJson(ctx, { name, skill: skill ?? null, excluded, collisions: skills.collisions.filter((c) => c.name === name) });
          else if (skill) out(ctx, formatSkill(skill, ctx.colors));
          else if (excluded.length > 0) out(ctx, excluded.map((e) => formatExclusion(e, ctx.colors)).join('\n'));
          else {
            const guesses = suggestNames(name, [...skills.skills.map((s) => s.name), ...skills.excluded.map(nameOf)]);
            out(ctx, printable(`${name}: no such skill${guesses.length ? `; did you mean: ${guesses.join(', ')}?` : ''}`));
          }
          return skill ? 0 : 1;
        });
      }
      case 'check':
        expectPositionals('skills check', rest, 0, 0, 'no arguments');
        if (values.proposal !== undefined) return checkProposal(ctx, values.proposal, values.json);
        return runSkills(ctx, values, 'skills', (skills, who) => {
          if (values.json) outJson(ctx, { run: who, problems: checkProblems(skills), ...skills });
          else out(ctx, formatCheck(skills, who, ctx.colors));
          return checkProblems(skills) === 0 ? 0 : 1;
        });
      default:
        throw usageError(`unknown subcommand '${sub}' for 'pincer skills' (known: list, show, check)`, 'skills');
    }
  },
};
