/** `pincer doctor`: everything a run needs, checked for real, each problem with its fix. */
import { COMMON_OPTIONS, expectPositionals, parseFlags } from '../args.js';
import { describeSource, discoverConfig } from '../config-source.js';
import { out, outJson, type CliContext, type Command } from '../context.js';
import { CliError } from '../errors.js';
import { checkBackends } from '../doctor/backend-check.js';
import { checkConfigFile } from '../doctor/config-check.js';
import { checkNode } from '../doctor/node-check.js';
import { checkPlugins } from '../doctor/plugin-check.js';
import { checkSkills } from '../doctor/skills-check.js';
import { line, type DoctorLine } from '../doctor/types.js';
import type { PincerConfig } from '../kernel.js';
import { packageRoot } from '../package-root.js';
import { resolveWorkspaceFlag } from '../workspace-guard.js';

const OPTIONS = { ...COMMON_OPTIONS, workspace: { type: 'string', short: 'w' }, strict: { type: 'boolean' } } as const;

export const doctorCommand: Command = {
  name: 'doctor',
  summary: 'Check Node, the config, every plugin, sandbox backend and skill source',
  help: `Usage: pincer doctor [--config F] [--workspace D] [--strict] [--json]

Checks, for real, what a run needs, and prints one line per check with the fix
for each problem:
  node      the Node.js version against the one Pincer needs
  config    the file loads and passes the schema; plugins resolve; docker
            settings pass the security validation (as 'pincer config check');
            dangerous overrides and policy entries that do nothing warn
  plugins   each configured plugin is started (lazy ones too) and answers the
            handshake; its start time is shown
  backends  each configured sandbox backend's self-test (as 'pincer sandbox
            check'): docker engine, image and read-only probe; ssh connection
            with the host key verified
  skills    each agent's skill sources as the loader lists them (extra,
            bundled, managed, personal, project, workspace): how many skills,
            how each is watched, and every skill it excluded for a problem

Exit status: 0 when nothing failed (warnings allowed), 1 when a check failed,
or a warning was found under --strict.

Options:
  -c, --config F      config file (else $PINCER_CONFIG, ./pincer.config.json, embedded default)
  -w, --workspace D   workspace of agents the config gives none (default: the current directory)
      --strict        fail on warnings too
      --json          machine-readable output: {ok, config, checks:[{section, subject, status, detail, fix?}]}`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('doctor', argv, OPTIONS);
    expectPositionals('doctor', positionals, 0, 0, 'no arguments');
    const workspace = values.workspace === undefined ? ctx.cwd : resolveWorkspaceFlag(ctx, values.workspace, 'doctor');
    const api = await ctx.kernelApi();
    const source = discoverConfig(ctx, values.config);
    const lines: DoctorLine[] = [checkNode(packageRoot())];
    const { lines: configLines, config } = await checkConfigFile(ctx, api, source, workspace);
    lines.push(...configLines);
    if (config) {
      const started = await checkPlugins(api, config, source, workspace, (kernel) => checkSkills(kernel, agentIds(config))).catch((error: unknown) => ({
        plugins: [line('plugins', 'kernel', 'fail', `the kernel does not start: ${(error as Error).message}`, "run 'pincer plugins' for details")],
        more: [line('skills', 'sources', 'skip', 'not checked: the kernel does not start')],
      }));
      lines.push(...started.plugins);
      lines.push(...(await checkBackends(api, config, source, workspace)));
      lines.push(...started.more);
    } else {
      lines.push(line('plugins', '(all)', 'skip', 'not checked: the config does not load'));
    }
    const failed = lines.some((l) => l.status === 'fail') || (values.strict === true && lines.some((l) => l.status === 'warn'));
    if (values.json) outJson(ctx, { ok: !failed, config: describeSource(source), checks: lines });
    else out(ctx, formatDoctor(ctx, lines));
    if (failed) throw new CliError('UNHEALTHY', 'pincer doctor found problems', { reported: true, data: { checks: lines } });
    return 0;
  },
};

/** The configured agents' ids (none: the implicit default agent). */
function agentIds(config: PincerConfig): string[] {
  const agents = (config as { agents?: { list?: Array<{ id: string }> } }).agents;
  return (agents?.list ?? []).map((a) => a.id);
}

function formatDoctor(ctx: CliContext, lines: DoctorLine[]): string {
  const c = ctx.colors;
  const mark = { ok: c.green('✓'), warn: c.yellow('!'), fail: c.red('✗'), skip: c.dim('-') };
  const out: string[] = [];
  let section = '';
  for (const l of lines) {
    if (l.section !== section) out.push(c.bold((section = l.section)));
    const width = Math.max(...lines.filter((other) => other.section === l.section).map((other) => other.subject.length));
    out.push(`  ${mark[l.status]} ${l.subject.padEnd(width)}  ${l.status === 'fail' ? c.red(l.detail) : l.detail}`);
    if (l.fix) out.push(`      ${c.dim('fix:')} ${l.fix}`);
  }
  const count = (s: DoctorLine['status']) => lines.filter((l) => l.status === s).length;
  out.push('', `${count('fail')} failed, ${count('warn')} warning(s), ${count('ok')} ok`);
  return out.join('\n');
}
