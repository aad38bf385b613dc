/** `pincer call TOOL 'JSON'`: one call through the full gate (hooks, loop detection, sandbox). */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { RUN_FLAGS_HELP, RUN_OPTIONS, expectPositionals, parseFlags, runContextFrom, runOpenOptions } from '../args.js';
import { err, out, outJson, type CliContext, type Command } from '../context.js';
import { CliError, toCliError, usageError } from '../errors.js';
import { formatExplanation } from '../format/explain.js';
import { callResultJson, formatCallFailure, formatResult } from '../format/content.js';
import { startProgress, type Progress } from '../format/progress.js';
import { terminalApprovalSurface } from '../format/approval-prompt.js';
import { describeRun } from '../format/tools-report.js';
import { assembleRun, withKernel } from '../kernel-session.js';
import { readScript } from '../script-runner.js';

const CALL_OPTIONS = { ...RUN_OPTIONS, script: { type: 'string' } } as const;

export const callCommand: Command = {
  name: 'call',
  summary: 'Run one tool call through the full gate',
  help: `Usage: pincer call TOOL ['JSON params' | -] [run flags] [--json]

Runs one call of TOOL with the given parameters (a JSON object; '-' reads it
from stdin; omitted means {}) through the same path a model's call takes:
policy, loop detection, hooks and approvals, then the owning plugin in the
session's sandbox. Prints the result content; Ctrl-C cancels the call.

Prints the result content (what a model would read) on stdout, and on stderr
the outcome and its code (denied, blocked, unavailable, tool error, timed out,
cancelled); for a tool the run does not hold, also why, layer by layer. With
--json, prints the result as the library returns it: outcome, code, retryable,
isError, content, details, error.

Exit status: 0 when the call succeeded, 1 for every other outcome (the tool is
not available, the call was denied or blocked, the tool returned an error).

${RUN_FLAGS_HELP}
      --script FILE   run agent turns (sessions_send, a subagent) with the scripted
                      runner: each replays FILE's steps, [{"tool":..,"params":{..}}],
                      or the steps its own message carries (docs/automations.md)

Examples:
  pincer call read '{"path":"README.md"}'
  pincer call exec '{"command":"ls -la"}' --agent main --json
  echo '{"path":"notes.txt","content":"hi"}' | pincer call write -`,

  async run(ctx, argv) {
    const { values, positionals } = parseFlags('call', argv, CALL_OPTIONS);
    expectPositionals('call', positionals, 1, 2, 'a TOOL name');
    const [toolName, rawParams] = positionals;
    const params = parseParams(rawParams);
    const run = runContextFrom(values);
    // On a terminal, approvals are asked right here; elsewhere nobody could answer.
    let spinner: Progress | undefined;
    const approvalSurface = terminalApprovalSurface(process.stdin, ctx.stderr, ctx.errColors, () => spinner?.done());
    const script = values.script === undefined ? undefined : readScript(ctx, values.script, 'call');
    return withKernel(ctx, { ...runOpenOptions('call', values), approvalSurface, script }, async (session) => {
      const toolSet = assembleRun(ctx, session, run);
      const abort = new AbortController();
      const onSigint = () => abort.abort(new CliError('CALL_FAILED', 'cancelled by Ctrl-C'));
      process.once('SIGINT', onSigint);
      // The first call of a lazy plugin starts its process; show that something is happening.
      const progress = (spinner = startProgress(ctx.stderr, `calling ${toolName}…`));
      let result;
      try {
        // The same call a model makes: every outcome (denied, blocked, crashed…) is a result, as in the library and MCP.
        result = await toolSet.execute(toolName, params, { signal: abort.signal, toolCallId: `cli-${randomUUID()}`, onProgress: streamProgress(ctx, progress) });
      } catch (cause) {
        throw toCliError(cause, 'CALL_FAILED');
      } finally {
        progress.done();
        process.off('SIGINT', onSigint);
      }

      if (values.json) outJson(ctx, callResultJson(toolName, result));
      else {
        if (result.isError) err(ctx, formatCallFailure(toolName, result, ctx.errColors));
        // For a tool the run does not hold, the operator also gets the step-by-step story and how to change it.
        if (result.outcome === 'denied' && result.code === 'TOOL_REMOVED' || result.outcome === 'unavailable') {
          err(ctx, formatExplanation(toolSet.explain(toolName), toolSet, describeRun(run, toolSet), ctx.errColors));
        }
        out(ctx, formatResult(result));
      }
      return result.isError ? 1 : 0;
    });
  },
};

/** The params argument: a JSON object, '-' for stdin, or nothing for {}. */
function parseParams(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  // fd 0 is stdin; a synchronous read is fine for a one-shot CLI argument.
  const text = raw === '-' ? readFileSync(0, 'utf8') : raw;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw usageError(`params are not valid JSON: ${(cause as Error).message}`, 'call');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw usageError(`params must be a JSON object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`, 'call');
  }
  return value as Record<string, unknown>;
}

/**
 * On a terminal, a command's output so far (an `exec` report carries `output`) streams into the
 * lines above the status line; any other report (a step, "still running") shows on the status line.
 */
function streamProgress(ctx: CliContext, progress: Progress): ((value: unknown) => void) | undefined {
  if (!ctx.stderr.isTTY) return undefined;
  return (value) => {
    const report = (value && typeof value === 'object' ? value : {}) as { message?: unknown; progress?: unknown; total?: unknown; output?: unknown };
    if (Array.isArray(report.output) && typeof report.message === 'string') return progress.output(report.message);
    const step = typeof report.progress === 'number' ? `${report.progress}${typeof report.total === 'number' ? `/${report.total}` : ''} ` : '';
    const message = typeof report.message === 'string' ? report.message.split('\n').filter(Boolean).pop() ?? '' : '';
    progress.update(`${step}${message}`.trim() || 'working…');
  };
}
