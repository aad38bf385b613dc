/** `user@host[:port]`, the ssh backend's target as `pincer init` takes it. */
import { usageError } from '../errors.js';
import type { SshTarget } from './starter-config.js';

const TARGET = /^([^@\s:]+)@([^@\s:]+)(?::(\d{1,5}))?$/;

/** Why `text` is not a target, or undefined when it is. */
export function validateSshTarget(text: string): string | undefined {
  const match = TARGET.exec(text);
  if (!match) return `expected user@host or user@host:port, got '${text}'`;
  const port = match[3] === undefined ? undefined : Number(match[3]);
  if (port !== undefined && (port < 1 || port > 65535)) return `port ${port} is not between 1 and 65535`;
  return undefined;
}

export function parseSshTarget(text: string, command: string): SshTarget {
  const problem = validateSshTarget(text);
  if (problem) throw usageError(`--ssh: ${problem}`, command);
  const [, user, host, port] = TARGET.exec(text)!;
  return { user: user!, host: host!, ...(port ? { port: Number(port) } : {}) };
}
