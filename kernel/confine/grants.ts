/**
 * From a plugin's declaration to the grants it runs with: the operator's settings pick the
 * conditional grants (`when`), then placeholders become host paths.
 */
import path from 'node:path';
import type { ConditionalGrant, ConfinementGrants, PluginConfinement } from '../../protocol/v1/confinement.js';

/** Host paths the placeholders stand for. */
export interface PlaceholderValues {
  workspaces: readonly string[];
  dataDir: string;
  skillRoots: readonly string[];
  /** The plugin entry's settings (`${settings.a.b}`). */
  settings?: Record<string, unknown>;
  /** The plugin's working directory: a relative path in a setting is resolved against it, as the plugin does. */
  cwd?: string;
}

export type ResolvedConfinement =
  | { kind: 'confined'; grants: ConfinementGrants }
  /** The declaration asks to run unconfined under these settings (`because` names the setting). */
  | { kind: 'unconfined'; because: string }
  /** The declaration says the plugin cannot be confined meaningfully, and why. */
  | { kind: 'unconfinable'; reason: string };

function settingAt(settings: Record<string, unknown>, dotPath: string): unknown {
  let value: unknown = settings;
  for (const key of dotPath.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function applies(grant: ConditionalGrant, settings: Record<string, unknown>): boolean {
  const value = settingAt(settings, grant.setting);
  return grant.equals !== undefined ? value === grant.equals : value !== grant.notEquals;
}

const NETWORK_RANK = { none: 0, loopback: 1, hosts: 2, host: 3 } as const;
const rank = (n: ConfinementGrants['network']) => NETWORK_RANK[typeof n === 'string' ? n : 'hosts'];

/** A conditional grant only widens: lists add up, network takes the wider of the two. */
function widen(base: ConfinementGrants, add: Partial<ConfinementGrants>): ConfinementGrants {
  let network = base.network;
  if (add.network !== undefined) {
    if (typeof add.network === 'object' && typeof network === 'object') network = { hosts: [...new Set([...network.hosts, ...add.network.hosts])] };
    else if (rank(add.network) > rank(network)) network = add.network;
  }
  return {
    filesystem: [...base.filesystem, ...(add.filesystem ?? [])],
    network,
    spawn: base.spawn || add.spawn === true,
    env: [...new Set([...base.env, ...(add.env ?? [])])],
  };
}

export function resolveConfinement(declared: PluginConfinement, settings: Record<string, unknown>): ResolvedConfinement {
  if ('unconfined' in declared) return { kind: 'unconfinable', reason: declared.unconfined };
  const { when, ...base } = declared;
  let grants: ConfinementGrants = base;
  for (const grant of when) {
    if (!applies(grant, settings)) continue;
    const test = grant.equals !== undefined ? `= ${JSON.stringify(grant.equals)}` : `≠ ${JSON.stringify(grant.notEquals)}`;
    if (grant.unconfined) return { kind: 'unconfined', because: `settings.${grant.setting} ${test}` };
    grants = widen(grants, grant.add ?? {});
  }
  return { kind: 'confined', grants };
}

/** What `${settings.a.b}` stands for: a non-empty string, or each one of a list; nothing otherwise. */
function settingPaths(holder: string, values: PlaceholderValues): string[] {
  const value = settingAt(values.settings ?? {}, holder.slice('${settings.'.length, -1));
  const list = Array.isArray(value) ? value : [value];
  return list.filter((p): p is string => typeof p === 'string' && p !== '' && !p.includes('\0')).map((p) => path.resolve(values.cwd ?? '/', p));
}

/** Replaces placeholders; a placeholder standing for several roots yields one path per root. */
export function expandPaths(grants: ConfinementGrants, values: PlaceholderValues): Array<{ path: string; access: 'ro' | 'rw' }> {
  const roots: Record<string, readonly string[]> = { '${workspace}': values.workspaces, '${dataDir}': [values.dataDir], '${skillRoots}': values.skillRoots };
  return grants.filesystem.flatMap(({ path: declared, access }) => {
    if (declared.startsWith('/')) return [{ path: path.resolve(declared), access }];
    const slash = declared.indexOf('/');
    const holder = slash < 0 ? declared : declared.slice(0, slash);
    const rest = slash < 0 ? '' : declared.slice(slash + 1);
    const bases = holder.startsWith('${settings.') ? settingPaths(holder, values) : (roots[holder] ?? []);
    return bases.map((root) => ({ path: path.resolve(root, rest), access }));
  });
}
