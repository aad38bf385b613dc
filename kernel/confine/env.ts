/**
 * The environment of a confined plugin: cleared, then the protocol's variables, the names it
 * declared (from its config `env`, else the kernel's environment), and the operator's `env`.
 * Never the kernel's pid: in its own PID namespace that number means nothing (or someone else).
 */
import { CONFINEMENT_ENV, PROXY_SOCKET_ENV, type ConfinementGrants } from '../../protocol/v1/confinement.js';
import { PLUGIN_COOKIE_ENV, PLUGIN_COOKIE_VALUE, PLUGIN_DATA_DIR_ENV, PLUGIN_ID_ENV, TRANSPORT_ENV } from '../../protocol/index.js';
import type { PluginConfig } from '../host/config.js';
import { SANDBOX_PROXY_SOCKET } from './bwrap-args.js';

const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin';

export function confinedEnv(
  config: PluginConfig,
  grants: ConfinementGrants,
  paths: ReadonlyArray<{ path: string; access: 'ro' | 'rw' }>,
  dataDir: string,
  source: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string> = { PATH: SANDBOX_PATH, HOME: dataDir, TMPDIR: '/tmp' };
  for (const name of ['LANG', 'LC_ALL', 'TZ']) if (source[name] !== undefined) env[name] = source[name]!;
  for (const name of grants.env) {
    const value = config.env[name] ?? source[name];
    if (value !== undefined && !value.startsWith('()')) env[name] = value; // skip exported shell functions
  }
  const proxied = grants.network === 'loopback' || typeof grants.network === 'object';
  return {
    ...env,
    ...config.env,
    [PLUGIN_COOKIE_ENV]: PLUGIN_COOKIE_VALUE,
    [TRANSPORT_ENV]: config.transport,
    [PLUGIN_ID_ENV]: config.id,
    [PLUGIN_DATA_DIR_ENV]: dataDir,
    [CONFINEMENT_ENV]: JSON.stringify({ paths, network: grants.network, spawn: grants.spawn, env: grants.env }),
    ...(proxied ? { [PROXY_SOCKET_ENV]: SANDBOX_PROXY_SOCKET } : {}),
  };
}
