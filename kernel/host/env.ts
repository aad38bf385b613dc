import { KERNEL_PID_ENV, PLUGIN_COOKIE_ENV, PLUGIN_COOKIE_VALUE, PLUGIN_ID_ENV, TRANSPORT_ENV } from '../../protocol/index.js';
import type { PluginConfig } from './config.js';

/**
 * Variables a plugin inherits from the kernel. Everything else (API keys, tokens) stays out:
 * a plugin gets secrets only through its own `env` or `settings` config.
 */
export const DEFAULT_INHERITED_ENV_VARS: readonly string[] = Object.freeze([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE', 'TERM', 'TZ', 'TMPDIR', 'TEMP', 'TMP',
  // Windows needs these to start anything at all.
  'SYSTEMROOT', 'SYSTEMDRIVE', 'WINDIR', 'COMSPEC', 'PATHEXT', 'APPDATA', 'LOCALAPPDATA', 'USERPROFILE',
]);

export function buildPluginEnv(
  config: PluginConfig,
  options: { inherit?: readonly string[]; source?: NodeJS.ProcessEnv } = {},
): Record<string, string> {
  const source = options.source ?? process.env;
  const env: Record<string, string> = {};
  for (const name of [...(options.inherit ?? DEFAULT_INHERITED_ENV_VARS), ...(config.inheritEnv ?? [])]) {
    const value = source[name];
    if (value !== undefined && !value.startsWith('()')) env[name] = value; // skip exported shell functions
  }
  return {
    ...env,
    ...config.env,
    [PLUGIN_COOKIE_ENV]: PLUGIN_COOKIE_VALUE,
    [TRANSPORT_ENV]: config.transport,
    [KERNEL_PID_ENV]: String(process.pid),
    [PLUGIN_ID_ENV]: config.id,
  };
}
