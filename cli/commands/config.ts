/** `pincer config check`: validate a config file and list every problem with its path. */
import { COMMON_OPTIONS, expectPositionals, parseFlags } from '../args.js';
import { configError, describeSource, discoverConfig, type ConfigSource } from '../config-source.js';
import { out, outJson, type Command } from '../context.js';
import { CliError, usageError } from '../errors.js';
import type { ConfigIssue } from '../kernel.js';

export const configCommand: Command = {
  name: 'config',
  summary: 'Validate a config file (pincer config check)',
  help: `Usage: pincer config check [FILE | --config F] [--json]

Validates a config file and prints every problem with its config path
(e.g. agents.list[0].tools.allow[2]), not just the first. With no file, checks
the one discovery would use: $PINCER_CONFIG, else ./pincer.config.json; when
neither exists the embedded default is in use and there is nothing to check.

Exit status: 0 when valid, 1 when invalid or unreadable.

Options:
  -c, --config F   the file to check
      --json       machine-readable output: {ok, path, issues:[{path,message}]}`,

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
      const result = api.checkConfig(api.defaultConfig({ cwd: ctx.cwd }));
      return report(ctx, source, result.ok, result.issues, values.json);
    }
    try {
      await api.loadConfig(source.path, { cwd: ctx.cwd });
      return report(ctx, source, true, [], values.json);
    } catch (cause) {
      const error = configError(cause, source);
      const issues = (error.data?.issues as ConfigIssue[] | undefined) ?? [];
      if (issues.length === 0) throw error; // not found / unreadable: no per-path story to tell
      // A file that is not JSON at all has one root issue; the parser's message says where.
      const detail = (cause as Error).message.split('\n')[0];
      const withDetail = issues.map((i) => (i.path === '(root)' && /not valid JSON/.test(i.message) && detail.includes('JSON:') ? { ...i, message: detail.slice(detail.indexOf('JSON:') + 6) } : i));
      return report(ctx, source, false, withDetail, values.json);
    }
  },
};

function report(ctx: Parameters<Command['run']>[0], source: ConfigSource, ok: boolean, issues: ConfigIssue[], json?: boolean): number {
  const where = describeSource(source);
  if (json) {
    outJson(ctx, { ok, path: 'path' in source ? source.path : null, source: source.kind, issues });
  } else if (ok) {
    out(ctx, `${ctx.colors.green('✓')} ${where} is valid`);
  } else {
    const c = ctx.colors;
    out(ctx, `${c.red('✗')} ${where}: ${issues.length} problem${issues.length === 1 ? '' : 's'}`);
    const width = Math.max(...issues.map((i) => (i.path || '(root)').length));
    for (const issue of issues) out(ctx, `  ${c.bold((issue.path || '(root)').padEnd(width))}  ${issue.message}`);
  }
  if (!ok) throw new CliError('CONFIG', `${where} is invalid`, { reported: true, data: { issues } });
  return 0;
}
