/** `pincer tools`: the effective tool set of one run, and what policy removed. */
import { RUN_FLAGS_HELP, RUN_OPTIONS, expectPositionals, parseFlags, runContextFrom, runOpenOptions } from '../args.js';
import { describeSource } from '../config-source.js';
import { out, outJson, terminalWidth, type Command } from '../context.js';
import { formatToolsReport, toolsReportJson } from '../format/tools-report.js';
import { assembleRun, withKernel } from '../kernel-session.js';
import { formatPluginProblems, unhealthyPlugins } from './plugins.js';

export const toolsCommand: Command = {
  name: 'tools',
  summary: 'List the tools a run gets, and what each policy layer removed',
  help: `Usage: pincer tools [run flags] [--json]

Assembles the tool set for one run (agent, session, sender, group, provider)
and prints the effective tools, then every removed tool with the layer and
rule that removed it and the config key to change, then warnings.

${RUN_FLAGS_HELP}

Examples:
  pincer tools
  pincer tools --agent support --sender @alice --provider openai
  pincer tools --json | jq '.tools[].name'`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('tools', argv, RUN_OPTIONS);
    expectPositionals('tools', positionals, 0, 0, 'no arguments');
    const run = runContextFrom(values);
    return withKernel(ctx, { ...runOpenOptions('tools', values), reportsPolicyWarnings: true }, async (session) => {
      const toolSet = assembleRun(ctx, session, run);
      // A plugin that cannot start contributes nothing: say which and why, not just "0 tools".
      const problems = unhealthyPlugins(session.kernel.plugins());
      const configSource = describeSource(session.source);
      if (values.json) outJson(ctx, { ...toolsReportJson(run, toolSet, configSource), pluginProblems: problems });
      else {
        out(ctx, formatToolsReport(run, toolSet, { colors: ctx.colors, width: terminalWidth(ctx), configSource }));
        if (problems.length > 0) out(ctx, `\n${formatPluginProblems(ctx, problems)}`);
      }
      return 0;
    });
  },
};
