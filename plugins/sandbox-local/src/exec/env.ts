import { NON_INTERACTIVE_ENV, invalidEnvName } from '../../../../sdk/sandbox/shell/command-env.js';
import { WorkspaceError } from '../../../../sdk/fs-bridge/index.js';

/**
 * Variables a command inherits from the backend's own environment. Everything else (tokens,
 * API keys, the kernel's plugin cookie) stays out: a command sees only this allow-list, the
 * non-interactive defaults, and what the backend config and the call set explicitly.
 */
export const INHERITED_ENV_VARS = ['PATH', 'HOME', 'LANG', 'TMPDIR'] as const;

/** Used when the host has no PATH, so `/bin/sh -c ls` still finds `ls`. */
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

export function buildCommandEnv(
  hostEnv: NodeJS.ProcessEnv,
  configured: Readonly<Record<string, string>> = {},
  explicit: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const bad = invalidEnvName(configured) ?? invalidEnvName(explicit);
  if (bad !== undefined) throw new WorkspaceError('IO_ERROR', `Invalid environment variable name "${bad}": names are letters, digits and "_", not starting with a digit`);
  const env: Record<string, string> = { ...NON_INTERACTIVE_ENV };
  for (const name of INHERITED_ENV_VARS) {
    const value = hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH ??= FALLBACK_PATH;
  return { ...env, ...configured, ...explicit };
}
