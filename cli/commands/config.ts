/** `pincer config check`: validate a config file and list every problem with its path. */
import { COMMON_OPTIONS, expectPositionals, parseFlags } from '../args.js';
import { configError, describeSource, discoverConfig, type ConfigSource } from '../config-source.js';
import { configFindings } from '../check/config-findings.js';
import { out, outJson, type CliContext, type Command } from '../context.js';
import { CliError, usageError } from '../errors.js';
import type { ConfigIssue, KernelApi, PincerConfig } from '../kernel.js';

export const configCommand: Command = {
  name: 'config',
  summary: 'Validate a config file (pincer config check)',
  help: `Usage: pincer config check [FILE | --config F] [--json]

Validates a config file and prints every problem with its config path
(e.g. agents.list[0].tools.allow[2]), not just the first. Beyond the schema it
checks what the first call would otherwise refuse: every plugin's module or
command resolves (relative paths against the config file's folder), and every
agent's docker sandbox settings pass the backend's security validation (binds,
network, seccomp/AppArmor profiles, capabilities, read-only root, user).
Dangerous overrides in effect (sandbox.docker.dangerouslyAllow…) and policy
entries that match no tool, group or plugin (a deny that denies nothing) are
listed as warnings. With no file, checks the one discovery would use: $PINCER_CONFIG,
else ./pincer.config.json, else the embedded default.

Exit status: 0 when valid (warnings included), 1 when invalid or unreadable.

Options:
  -c, --config F   the file to check
      --json       machine-readable output: {ok, path, issues:[{path,message}], warnings:[{path,message}]}`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('config', argv, COMMON_OPTIONS);
    const [sub, file] = positionals;
    if (sub === undefined) throw usageError("'pincer config' needs a subcommand: check", 'config');
    if (sub !== 'check') throw usageError(`unknown subcommand '${sub}' for 'pincer config' (known: check)`, 'config');
    expectPositionals('config check', positionals.slice(1), 0, 1, 'at most one FILE');
    if (file && values.config) throw usageError('give the file either as FILE or as --config, not both', 'config');

    const source = discoverConfig(ctx, file ?? values.config);
    const api = await ctx.kernelApi();
    if (source.kind === 'default') {
      const config = api.defaultConfig({ cwd: ctx.cwd });
      const result = api.checkConfig(config);
      return result.ok ? reportLoaded(ctx, api, source, config, values.json) : report(ctx, source, result.issues, [], [], values.json);
    }
    let config: PincerConfig;
    try {
      config = await api.loadConfig(source.path, { cwd: ctx.cwd });
    } catch (cause) {
      const error = configError(cause, source);
      const issues = (error.data?.issues as ConfigIssue[] | undefined) ?? [];
      if (issues.length === 0) throw error; // not found / unreadable: no per-path story to tell
      // A file that is not JSON at all has one root issue; the parser's message says where.
      const detail = (cause as Error).message.split('\n')[0];
      const withDetail = issues.map((i) => (i.path === '(root)' && /not valid JSON/.test(i.message) && detail.includes('JSON:') ? { ...i, message: detail.slice(detail.indexOf('JSON:') + 6) } : i));
      return report(ctx, source, withDetail, [], [], values.json);
    }
    return reportLoaded(ctx, api, source, config, values.json);
  },
};

/** A config the schema accepts: now judge what the first call would (plugins, sandbox security). */
function reportLoaded(ctx: CliContext, api: KernelApi, source: ConfigSource, config: PincerConfig, json?: boolean): number {
  const { issues, overrides, policy } = configFindings(api, config, ctx.cwd, ctx.env);
  return report(ctx, source, issues, overrides, policy, json);
}

function report(ctx: CliContext, source: ConfigSource, issues: ConfigIssue[], overrides: ConfigIssue[], policy: ConfigIssue[], json?: boolean): number {
  const where = describeSource(source);
  const ok = issues.length === 0;
  const c = ctx.colors;
  const list = (findings: ConfigIssue[]) => {
    const width = Math.max(...findings.map((i) => (i.path || '(root)').length));
    for (const f of findings) out(ctx, `  ${c.bold((f.path || '(root)').padEnd(width))}  ${f.message}`);
  };
  if (json) {
    outJson(ctx, { ok, path: 'path' in source ? source.path : null, source: source.kind, issues, warnings: [...overrides, ...policy] });
  } else {
    if (ok) out(ctx, `${c.green('✓')} ${where} is valid`);
    else out(ctx, `${c.red('✗')} ${where}: ${issues.length} problem${issues.length === 1 ? '' : 's'}`);
    list(issues);
    if (overrides.length) {
      out(ctx, `${c.yellow('!')} ${overrides.length} dangerous override${overrides.length === 1 ? '' : 's'} in effect:`);
      list(overrides);
    }
    if (policy.length) {
      out(ctx, `${c.yellow('!')} ${policy.length} policy entr${policy.length === 1 ? 'y does' : 'ies do'} nothing:`);
      list(policy);
    }
  }
  if (!ok) throw new CliError('CONFIG', `${where} is invalid`, { reported: true, data: { issues } });
  return 0;
}
