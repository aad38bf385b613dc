import { SandboxError } from '../errors.js';
import { ENV_NAME_PATTERN } from './command-env.js';

/** Single-quotes a value for POSIX sh; safe for any byte sequence but NUL. */
export function shQuote(value: string): string {
  if (value.includes('\0')) throw new SandboxError('PATH_NOT_ADMITTED', 'NUL bytes cannot be passed to a sandbox shell');
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `sh -c <script> pincer <args…>` as one command line, for transports that take a string (ssh). */
export function toShellCommandLine(script: string, args: readonly string[]): string {
  return ['sh', '-c', shQuote(script), 'pincer', ...args.map(shQuote)].join(' ');
}


/** `export K='v'` lines; names are validated so a key can never inject shell syntax. */
export function envExports(env: Record<string, string> = {}): string {
  return Object.entries(env)
    .map(([key, value]) => {
      if (!ENV_NAME_PATTERN.test(key)) throw new SandboxError('CONFIG_INVALID', `Invalid environment variable name "${key}" for a sandbox command`);
      return `export ${key}=${shQuote(value)}`;
    })
    .join('\n');
}
