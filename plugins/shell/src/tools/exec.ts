import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../../../sdk/plugin-api.js';
import { BackgroundRegistry, TooManyRunsError } from '../background/registry.js';
import { EXIT_COMMAND_NOT_FOUND, formatExecOutput } from './format-output.js';
import { fail, failFromError, ok, type ShellToolContext } from './results.js';

/** Defaults of the exec tool; the backend applies its own hard limits on top. */
export const EXEC_DEFAULTS = {
  timeoutSeconds: 120,
  backgroundTimeoutSeconds: 30 * 60,
  maxTimeoutSeconds: 2 * 60 * 60,
  maxOutputBytes: 128 * 1024,
} as const;

export const ExecParams = z.object({
  command: z.string().min(1).describe('Shell command line, run with /bin/sh -c in the workspace (pipes, &&, redirects work).'),
  cwd: z.string().optional().describe('Working directory, relative to the workspace root (default: the root). Must stay inside the workspace.'),
  env: z.record(z.string(), z.string()).optional().describe('Extra environment variables. Only PATH, HOME, LANG, TERM and TMPDIR are inherited otherwise.'),
  timeout: z
    .number()
    .positive()
    .max(EXEC_DEFAULTS.maxTimeoutSeconds)
    .optional()
    .describe('Seconds before the command and all its child processes are killed (default 120; 1800 for background runs).'),
  background: z
    .boolean()
    .default(false)
    .describe('Start the command and return at once with a sessionId; check it later with the process tool (poll, log, kill). Use for servers and long builds.'),
  stdin: z.string().optional().describe('Text written to the command’s standard input.'),
});
type ExecParamsOut = z.output<typeof ExecParams>;

function execOptions(params: ExecParamsOut, timeoutSeconds: number) {
  return {
    ...(params.cwd !== undefined ? { cwd: params.cwd } : {}),
    ...(params.env !== undefined ? { env: params.env } : {}),
    ...(params.stdin !== undefined ? { stdin: params.stdin } : {}),
    timeoutMs: Math.round(timeoutSeconds * 1000),
    maxOutputBytes: EXEC_DEFAULTS.maxOutputBytes,
  };
}

export async function runExec(params: ExecParamsOut, ctx: ShellToolContext, registry: BackgroundRegistry) {
  const details = { command: params.command, ...(params.cwd !== undefined ? { cwd: params.cwd } : {}) };
  try {
    if (params.background) {
      const options = execOptions(params, params.timeout ?? EXEC_DEFAULTS.backgroundTimeoutSeconds);
      const run = registry.start(ctx.workspace, params.command, options, ctx.call?.sessionKey);
      return ok(`Started background run ${run.id}. Check it with the process tool: {"action": "poll", "sessionId": "${run.id}"}.`, {
        ...details,
        sessionId: run.id,
        status: run.status,
        background: true,
      });
    }
    const options = execOptions(params, params.timeout ?? EXEC_DEFAULTS.timeoutSeconds);
    const result = await ctx.workspace.exec(params.command, options, ctx.signal);
    const text = formatExecOutput(result, options.timeoutMs);
    const { stdout: _stdout, stderr: _stderr, ...status } = result;
    const all = { ...details, ...status };
    if (result.timedOut) {
      const timedOut = fail('EXEC_TIMEOUT', `Command timed out after ${options.timeoutMs / 1000} s`, 'Raise timeout, or run it with background: true and poll it with the process tool.', all);
      // What it printed before it was killed is often the clue to why it hung.
      return { ...timedOut, content: [...timedOut.content, { type: 'text' as const, text: `\n${text}` }] };
    }
    if (result.exitCode === EXIT_COMMAND_NOT_FOUND) {
      const message = `Command not found (exit code 127)${result.stderr ? `: ${result.stderr.trim()}` : ''}`;
      return fail('EXEC_NOT_FOUND', message, 'Check the spelling, or whether it is installed (`command -v NAME`).', all);
    }
    return { ...ok(text, all), ...(result.exitCode === 0 ? {} : { isError: true }) };
  } catch (error) {
    if (error instanceof TooManyRunsError) return fail('TOO_MANY_RUNS', error.message, 'Kill finished or unneeded runs with the process tool first.', details);
    return failFromError(error, details);
  }
}

export function createExecTool(registry: BackgroundRegistry): ToolDefinition<typeof ExecParams> {
  return defineTool({
    name: 'exec',
    description:
      'Run a shell command in the workspace (/bin/sh -c) and return its output and exit code. Commands that exceed the timeout are killed with all their child processes; output beyond 128 KiB is dropped. Set background: true for long-running commands and manage them with the process tool.',
    inputSchema: ExecParams,
    aliases: ['bash'],
    executionMode: 'sequential',
    handler: (params, ctx) => runExec(params, ctx, registry),
  });
}
