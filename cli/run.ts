/**
 * Dispatch and error reporting, separate from the bin so tests can run the CLI in-process:
 * `runCli(argv, ctx)` resolves to the exit code and never calls `process.exit`.
 */
import { findCommand, mainHelp } from './commands/index.js';
import { err, outJson, out, type CliContext } from './context.js';
import { CliError, toCliError, usageError } from './errors.js';
import { suggestNames } from './format/suggest.js';
import { COMMANDS } from './commands/index.js';

export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  const json = argv.includes('--json');
  try {
    return await dispatch(argv, ctx);
  } catch (cause) {
    const error = toCliError(cause);
    if (!error.reported) report(ctx, error, json);
    return error.exitCode;
  }
}

async function dispatch(argv: string[], ctx: CliContext): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help') {
    out(ctx, mainHelp(ctx.version));
    return first === undefined ? 2 : 0;
  }
  if (first === '-v' || first === '--version') {
    out(ctx, ctx.version);
    return 0;
  }
  if (first === 'help') {
    const target = rest[0] ? findCommand(rest[0]) : undefined;
    if (rest[0] && !target) throw unknownCommand(rest[0]);
    out(ctx, target ? target.help : mainHelp(ctx.version));
    return 0;
  }
  if (first.startsWith('-')) throw usageError(`unknown flag '${first}' (flags go after the command)`);
  const command = findCommand(first);
  if (!command) throw unknownCommand(first);
  // --help anywhere before a literal `--` wins over everything else, including bad flags.
  const beforeDashes = rest.indexOf('--') === -1 ? rest : rest.slice(0, rest.indexOf('--'));
  if (beforeDashes.includes('--help') || beforeDashes.includes('-h')) {
    out(ctx, command.help);
    return 0;
  }
  return command.run(ctx, rest);
}

function unknownCommand(name: string): CliError {
  const guesses = suggestNames(name, COMMANDS.map((c) => c.name), 1);
  const message = `unknown command '${name}'${guesses.length ? ` (did you mean '${guesses[0]}'?)` : ''}`;
  return usageError(message);
}

function report(ctx: CliContext, error: CliError, json: boolean): void {
  if (json) {
    // Scripts asked for JSON: the error is JSON too, on stdout, with its stable code.
    outJson(ctx, { error: { code: error.code, message: error.message, ...error.data } });
    return;
  }
  const c = ctx.errColors;
  err(ctx, `${c.red('pincer:')} ${error.message}`);
  if (error.hint) err(ctx, error.hint);
  if (error.code === 'INTERNAL' && error.cause instanceof Error && error.cause.stack) err(ctx, c.dim(error.cause.stack));
}
