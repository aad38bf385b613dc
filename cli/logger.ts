/**
 * The logger the CLI hands the kernel. Everything goes to stderr: for `pincer serve` stdout is
 * the MCP channel, and for the other commands it is the report a script may parse.
 *
 * It is both a record sink (`logger({level, source, message, data})`, the kernel host's shape,
 * which tags plugin output as `plugin:<id>`) and an object with level methods for CLI code.
 */
import type { CliContext } from './context.js';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug' | 'trace';

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3, trace: 4 };

export interface LogRecord {
  level: LogLevel;
  source?: string;
  message: string;
  data?: unknown;
}

export interface CliLogger {
  (record: LogRecord): void;
  error(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
}

/** `$PINCER_LOG` (error|warn|info|debug|trace) overrides the command's default level. */
export function resolveLogLevel(env: NodeJS.ProcessEnv, fallback: LogLevel): LogLevel {
  const wanted = env.PINCER_LOG?.toLowerCase();
  return wanted && wanted in RANK ? (wanted as LogLevel) : fallback;
}

export function createStderrLogger(ctx: CliContext, level: LogLevel): CliLogger {
  const max = RANK[resolveLogLevel(ctx.env, level)];
  const c = ctx.errColors;
  const style: Record<LogLevel, (t: string) => string> = { error: c.red, warn: c.yellow, info: c.cyan, debug: c.dim, trace: c.dim };
  const write = (record: LogRecord) => {
    const rank = RANK[record.level] ?? RANK.info;
    if (rank > max) return;
    const source = record.source ? `${c.dim(`[${record.source}]`)} ` : '';
    const hasData = record.data !== undefined && !(typeof record.data === 'object' && record.data !== null && Object.keys(record.data).length === 0);
    ctx.stderr.write(`${style[record.level] ? style[record.level](record.level.padEnd(5)) : record.level} ${source}${record.message}${hasData ? ` ${safeJson(record.data)}` : ''}\n`);
  };
  const at = (lvl: LogLevel) => (message: string, data?: Record<string, unknown>) => write({ level: lvl, message, data });
  return Object.assign(write, { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') });
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
