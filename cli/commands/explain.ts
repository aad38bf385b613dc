/** `pincer explain TOOL`: why a tool is present or absent for one run. */
import { RUN_FLAGS_HELP, RUN_OPTIONS, expectPositionals, parseFlags, runContextFrom, runOpenOptions } from '../args.js';
import { describeSource } from '../config-source.js';
import { out, outJson, type Command } from '../context.js';
import { formatExplanation } from '../format/explain.js';
import { describeRun } from '../format/tools-report.js';
import { assembleRun, withKernel } from '../kernel-session.js';

export const explainCommand: Command = {
  name: 'explain',
  summary: 'Explain why a tool is present or absent for a run',
  help: `Usage: pincer explain TOOL [run flags] [--json]

Walks the policy pipeline for one run and tells, step by step, which layers
admitted TOOL, or which layer removed it, by which rule and entries, and the
config key to edit to bring it back.

A present tool also says when every call of the run is blocked by a missing
or failed required plugin; a tool whose plugin is failed is "unavailable",
with the plugin's state and last error.

Exit status: 0 when the tool is present or was removed by policy (the
explanation is the answer), 1 when no enabled plugin contributes TOOL or its
plugin is failed.

${RUN_FLAGS_HELP}

Examples:
  pincer explain exec --agent support
  pincer explain write --sender @guest --json`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('explain', argv, RUN_OPTIONS);
    expectPositionals('explain', positionals, 1, 1, 'a TOOL name');
    const toolName = positionals[0];
    const run = runContextFrom(values);
    return withKernel(ctx, runOpenOptions('explain', values), async (session) => {
      const { source } = session;
      const toolSet = assembleRun(ctx, session, run);
      const explanation = toolSet.explain(toolName);
      if (values.json) outJson(ctx, { config: describeSource(source), run, ...explanation });
      else out(ctx, formatExplanation(explanation, toolSet, describeRun(run, toolSet), ctx.colors));
      return 'unknown' in explanation || 'unavailable' in explanation ? 1 : 0;
    });
  },
};
