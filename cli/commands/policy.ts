/** `pincer policy diff OLD NEW` and `pincer policy test EXPECT.json`: review policy like code. */
import { dirname, resolve } from 'node:path';
import { COMMON_OPTIONS, expectPositionals, parseFlags } from '../args.js';
import { discoverConfig } from '../config-source.js';
import { out, outJson, type CliContext, type Command } from '../context.js';
import { CliError, usageError } from '../errors.js';
import { formatPolicyDiff } from '../format/policy-diff.js';
import { changed, diffShape } from '../policy/diff.js';
import { readExpectations } from '../policy/expectations.js';
import { judge } from '../policy/judge.js';
import { runShapes, unionShapes } from '../policy/shapes.js';
import { openPolicyKernel, type PolicyKernel } from '../policy/snapshot.js';

export const policyCommand: Command = {
  name: 'policy',
  summary: 'Review policy changes: diff two configs, test expected tool tables',
  help: `Usage: pincer policy diff OLD.json NEW.json [--json]
       pincer policy test EXPECT.json [--config F] [--json]

diff   For every run shape either config names (each agent's main session, a
       sandboxed session under sandbox mode non-main, each group and its
       senders, each sender and provider with rules), the tools NEW gains and
       loses against OLD, each with the layer and config key that cause it.
       Exit status 0 (a difference is the answer, not a failure).

test   Checks the tool tables an operator expects. EXPECT.json:
         { "config": "pincer.config.json",
           "runs": [ { "agent": "main", "mustHave": ["read"], "mustNotHave": ["exec"] },
                     { "agent": "main", "group": "team", "sender": "@guest", "mustNotHave": ["write"] } ] }
       A run takes agent, session, group, sender (as --sender: an id, @name
       or +E164), provider and model; "config" is relative to EXPECT.json, and
       --config overrides it. Exit status 1 when any run differs.

Both start a kernel per config (plugins that are not lazy really start), and
work with comments in the files.

Options:
  -c, --config F   (test) the config to check, instead of the file's "config"
      --json       machine-readable output`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('policy', argv, COMMON_OPTIONS);
    const [sub, ...files] = positionals;
    if (sub === 'diff') {
      if (values.config) throw usageError("'pincer policy diff' takes the two configs as OLD NEW, not --config", 'policy');
      expectPositionals('policy diff', files, 2, 2, 'two config files: OLD NEW');
      return policyDiff(ctx, resolve(ctx.cwd, files[0]!), resolve(ctx.cwd, files[1]!), values.json);
    }
    if (sub === 'test') {
      expectPositionals('policy test', files, 1, 1, 'an expectations file');
      return policyTest(ctx, resolve(ctx.cwd, files[0]!), values.config, values.json);
    }
    throw usageError(sub === undefined ? "'pincer policy' needs a subcommand: diff or test" : `unknown subcommand '${sub}' for 'pincer policy' (known: diff, test)`, 'policy');
  },
};

async function withPolicyKernel<T>(ctx: CliContext, file: string, fn: (kernel: PolicyKernel) => T | Promise<T>): Promise<T> {
  const kernel = await openPolicyKernel(ctx, await ctx.kernelApi(), file);
  try {
    return await fn(kernel);
  } finally {
    await kernel.stop().catch(() => undefined);
  }
}

async function policyDiff(ctx: CliContext, oldFile: string, newFile: string, json?: boolean): Promise<number> {
  const diffs = await withPolicyKernel(ctx, oldFile, (before) =>
    withPolicyKernel(ctx, newFile, (now) => {
      const shapes = unionShapes(runShapes(before.config), runShapes(now.config));
      return shapes.map((shape) => diffShape(shape, before.assemble(shape.run), now.assemble(shape.run)));
    }),
  );
  if (json) outJson(ctx, { old: oldFile, new: newFile, shapes: diffs, changed: diffs.filter(changed).length });
  else out(ctx, formatPolicyDiff(ctx.colors, oldFile, newFile, diffs));
  return 0;
}

async function policyTest(ctx: CliContext, file: string, configFlag: string | undefined, json?: boolean): Promise<number> {
  const expectations = readExpectations(file);
  const source = configFlag ? discoverConfig(ctx, configFlag) : expectations.config ? { kind: 'flag' as const, path: resolve(dirname(file), expectations.config) } : discoverConfig(ctx, undefined);
  if (source.kind === 'default') throw usageError(`${file} names no "config", and no --config, $PINCER_CONFIG or ./pincer.config.json was found`, 'policy');
  const reports = await withPolicyKernel(ctx, source.path, (kernel) => expectations.runs.map((e) => judge(kernel, e)));
  const failed = reports.filter((r) => !r.ok);
  if (json) outJson(ctx, { ok: failed.length === 0, config: source.path, runs: reports });
  else {
    const c = ctx.colors;
    for (const r of reports) {
      out(ctx, `${r.ok ? c.green('✓') : c.red('✗')} ${r.label}`);
      for (const f of r.failures) out(ctx, `    ${f.tool}: expected ${f.expected}; ${f.reason}`);
    }
    out(ctx, failed.length ? `${failed.length} of ${reports.length} runs differ from ${file}.` : `All ${reports.length} runs match ${file}.`);
  }
  if (failed.length) throw new CliError('EXPECTATION_FAILED', `${failed.length} run(s) differ from the expectations`, { reported: true, data: { runs: failed } });
  return 0;
}
