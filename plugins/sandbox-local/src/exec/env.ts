/**
 * Variables a command inherits from the backend's own environment. Everything
 * else (tokens, API keys, the kernel's plugin cookie) stays out: a command sees
 * only this allow-list plus what the backend config and the call set explicitly.
 */
export const INHERITED_ENV_VARS = ['PATH', 'HOME', 'LANG', 'TERM', 'TMPDIR'] as const;

/** Used when the host has no PATH, so `/bin/sh -c ls` still finds `ls`. */
const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';

export function buildCommandEnv(
  hostEnv: NodeJS.ProcessEnv,
  configured: Readonly<Record<string, string>> = {},
  explicit: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of INHERITED_ENV_VARS) {
    const value = hostEnv[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH ??= FALLBACK_PATH;
  return { ...env, ...configured, ...explicit };
}
