/**
 * The logger the CLI hands the kernel. Everything goes to stderr: for `pincer serve` stdout is
 * the MCP channel, and for the other commands it is the report a script may parse.
 */
import type { CliContext } from './context.js';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';

const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };

export interface CliLogger {
  error(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  debug(message: string, fields?: Record<string, unknown>): void;
}

/** `$PINCER_LOG` (error|warn|info|debug) overrides the command's default level. */
export function resolveLogLevel(env: NodeJS.ProcessEnv, fallback: LogLevel): LogLevel {
  const wanted = env.PINCER_LOG?.toLowerCase();
  return wanted && wanted in RANK ? (wanted as LogLevel) : fallback;
}

export function createStderrLogger(ctx: CliContext, level: LogLevel): CliLogger {
  const max = RANK[resolveLogLevel(ctx.env, level)];
  const c = ctx.errColors;
  const style: Record<LogLevel, (t: string) => string> = { error: c.red, warn: c.yellow, info: c.cyan, debug: c.dim };
  const log = (at: LogLevel) => (message: string, fields?: Record<string, unknown>) => {
    if (RANK[at] > max) return;
    const extra = fields && Object.keys(fields).length ? ` ${safeJson(fields)}` : '';
    ctx.stderr.write(`${style[at](at.padEnd(5))} ${message}${extra}\n`);
  };
  return { error: log('error'), warn: log('warn'), info: log('info'), debug: log('debug') };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
