/**
 * Flag parsing on top of `node:util` parseArgs, strict, with errors that name the offending flag
 * and the command (exit 2), and the flags shared by every command that assembles a run.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { usageError } from './errors.js';
import { suggestNames } from './format/suggest.js';
import type { RunContext } from './kernel.js';
import type { OpenOptions } from './kernel-session.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  json: { type: 'boolean' },
  config: { type: 'string', short: 'c' },
} as const satisfies Options;

/** Who the run is for: each flag feeds one policy layer. */
export const RUN_OPTIONS = {
  ...COMMON_OPTIONS,
  agent: { type: 'string', short: 'a' },
  session: { type: 'string', short: 's' },
  sender: { type: 'string' },
  group: { type: 'string' },
  channel: { type: 'string' },
  provider: { type: 'string' },
  model: { type: 'string' },
  workspace: { type: 'string', short: 'w' },
} as const satisfies Options;

export const RUN_FLAGS_HELP = `Run flags (each selects the policy layers that apply):
  -a, --agent A       agent id (default: the config's default agent)
  -s, --session S     session key (decides sandboxing for mode non-main)
      --sender U      sender: an id, @username or +E164 phone number
      --group G       group/channel id
      --channel C     the message channel this session talks on (message tool)
      --provider P    model provider (provider layers, schema normalization)
      --model M       model id
  -w, --workspace D   workspace of agents the config gives none (default: the
                      current directory; /, home and its parents only this way)
  -c, --config F      config file (else $PINCER_CONFIG, ./pincer.config.json, embedded default)
      --json          machine-readable output`;

export interface Parsed<O extends Options> {
  values: { [K in keyof O]?: O[K] extends { multiple: true } ? string[] : O[K]['type'] extends 'boolean' ? boolean : string };
  positionals: string[];
}

/** Strict parse; unknown flags and missing values become USAGE errors naming the flag. */
export function parseFlags<O extends Options>(command: string, argv: string[], options: O): Parsed<O> {
  try {
    const { values, positionals } = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
    return { values: values as Parsed<O>['values'], positionals };
  } catch (cause) {
    throw usageError(describeParseError(cause, command, Object.keys(options)), command);
  }
}

function describeParseError(cause: unknown, command: string, known: string[]): string {
  const error = cause as { code?: string; message?: string };
  const message = error.message ?? String(cause);
  // Node quotes the flag as '--foo' or, for value errors, as '-c, --config <value>'.
  const quoted = /'(-[^']*)'/.exec(message)?.[1] ?? '';
  const flag = /--[\w-]+/.exec(quoted)?.[0] ?? quoted;
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const [guess] = flag.startsWith('--') ? suggestNames(flag.slice(2), known, 1) : [];
      return `unknown flag '${flag}' for 'pincer ${command}'${guess ? ` (did you mean '--${guess}'?)` : ''}`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take/.test(message)
        ? `flag '${flag}' of 'pincer ${command}' does not take a value`
        : `flag '${flag}' of 'pincer ${command}' needs a value`;
    default:
      return message;
  }
}

/** Rejects positionals beyond what the command takes, naming the first extra one. */
export function expectPositionals(command: string, positionals: string[], min: number, max: number, what: string): void {
  if (positionals.length < min) throw usageError(`'pincer ${command}' needs ${what}`, command);
  if (positionals.length > max) throw usageError(`unexpected argument '${positionals[max]}' for 'pincer ${command}'`, command);
}

/** How a run command opens its kernel: the config and workspace flags. */
export function runOpenOptions(command: string, values: { config?: string; workspace?: string }): OpenOptions {
  return { command, configFlag: values.config, workspaceFlag: values.workspace };
}

/** Builds the run context from the run flags. A CLI run is operator-initiated: trigger 'user'. */
export function runContextFrom(values: Parsed<typeof RUN_OPTIONS>['values']): RunContext {
  const run: RunContext = { trigger: 'user' };
  if (values.agent) run.agentId = values.agent;
  if (values.session) run.sessionKey = values.session;
  if (values.sender) run.sender = parseSender(values.sender);
  if (values.group) run.groupId = values.group;
  if (values.channel) run.channel = values.channel;
  if (values.provider) run.provider = values.provider;
  if (values.model) run.model = values.model;
  return run;
}

/** `@name` is a username, `+15551234` a phone number, anything else an id. */
export function parseSender(text: string): NonNullable<RunContext['sender']> {
  if (text.startsWith('@') && text.length > 1) return { username: text.slice(1) };
  if (/^\+\d{4,}$/.test(text)) return { e164: text };
  return { id: text };
}
