/**
 * The HTTP flags of `pincer serve`, checked before anything starts. A flag that would change
 * nothing (an HTTP flag on stdio, a token file with --no-auth) is a usage error, never ignored.
 */
import { usageError } from '../errors.js';
import type { HttpSettings } from './start.js';

export interface HttpFlagValues {
  http?: string;
  socket?: string;
  'token-file'?: string;
  'no-auth'?: boolean;
  'allow-origin'?: string[];
  'max-sessions'?: string;
  'idle-timeout'?: string;
}

export const DEFAULT_MAX_SESSIONS = 32;
export const DEFAULT_IDLE_SECONDS = 1800;

export function parseHttpSettings(values: HttpFlagValues): HttpSettings | undefined {
  if (values.http !== undefined && values.socket !== undefined) throw fail('give either --http or --socket, not both');
  if (values.http === undefined && values.socket === undefined) {
    const stray = (['token-file', 'no-auth', 'allow-origin', 'max-sessions', 'idle-timeout'] as const).find((flag) => values[flag] !== undefined);
    if (stray) throw fail(`--${stray} applies only with --http or --socket`);
    return undefined;
  }
  if (values['no-auth'] && values['token-file'] !== undefined) throw fail('--no-auth and --token-file contradict each other');
  if (values.socket !== undefined && values.socket.trim() === '') throw fail('--socket needs a path, got an empty string');
  return {
    listen: values.socket !== undefined ? { socket: values.socket } : { port: integer('--http', values.http!, 0, 65_535) },
    tokenFile: values['token-file'],
    noAuth: values['no-auth'] === true,
    allowedOrigins: (values['allow-origin'] ?? []).map(origin),
    maxSessions: values['max-sessions'] === undefined ? DEFAULT_MAX_SESSIONS : integer('--max-sessions', values['max-sessions'], 1, 10_000),
    idleMs: 1000 * (values['idle-timeout'] === undefined ? DEFAULT_IDLE_SECONDS : integer('--idle-timeout', values['idle-timeout'], 1, 7 * 24 * 3600)),
  };
}

function integer(flag: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) throw fail(`${flag} needs a whole number ${min}-${max}, got '${text}'`);
  return value;
}

/** An origin exactly as a browser sends it: scheme://host[:port], nothing else ('*' is refused). */
function origin(text: string): string {
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    // reported below
  }
  if (!parsed || parsed.origin === 'null' || parsed.origin !== text.toLowerCase().replace(/\/$/, '')) {
    throw fail(`--allow-origin needs an origin like http://localhost:6274 (scheme, host and port only), got '${text}'`);
  }
  return parsed.origin;
}

function fail(message: string) {
  return usageError(message, 'serve');
}
