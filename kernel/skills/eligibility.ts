/**
 * Whether an agent may use a skill (SPEC §6.1): not disabled by `skills.entries.<key>`, in the
 * agent's skill allowlist when it has one, and (unless the manifest says `always`) its
 * binaries, environment variables, config keys and operating system present.
 */
import type { PincerConfig } from '../config/schema.js';
import type { MergedSkill } from './types.js';

export interface EligibilityContext {
  agentId: string;
  /** `agents.list[].skills` (or the defaults'); undefined = no allowlist. */
  allowlist?: readonly string[];
  config: PincerConfig;
  env: Readonly<Record<string, string | undefined>>;
  platform: string;
}

const OS_ALIASES: Record<string, string> = { macos: 'darwin', mac: 'darwin', osx: 'darwin', windows: 'win32', win: 'win32' };

/** A dot path into the config is set when it leads to a value that is neither absent, false nor empty. */
function configValue(config: unknown, path: string): boolean {
  let value: unknown = config;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return false;
    value = (value as Record<string, unknown>)[part];
  }
  return value !== undefined && value !== null && value !== false && value !== '' && !(Array.isArray(value) && value.length === 0);
}

/** Why the agent may not use the skill; empty when it may. */
export function ineligibility(skill: MergedSkill, ctx: EligibilityContext): string[] {
  const key = skill.manifest?.skillKey ?? skill.name;
  const reasons: string[] = [];
  if (ctx.config.skills?.entries?.[key]?.enabled === false) reasons.push(`disabled by skills.entries.${key}.enabled`);
  const lower = (s: string) => s.toLowerCase();
  if (ctx.allowlist && !ctx.allowlist.some((entry) => lower(entry) === lower(skill.name) || lower(entry) === lower(key))) {
    reasons.push(`not in the skills list of agent "${ctx.agentId}"`);
  }
  if (skill.manifest?.always) return reasons;
  const os = skill.manifest?.os ?? [];
  if (os.length > 0 && !os.map((o) => OS_ALIASES[o] ?? o).includes(ctx.platform)) reasons.push(`runs only on ${os.join(', ')} (this host is ${ctx.platform})`);
  if (skill.missingBins?.length) reasons.push(`missing binaries: ${skill.missingBins.join(', ')}`);
  const requires = skill.manifest?.requires;
  const env = (requires?.env ?? []).filter((name) => !ctx.env[name]);
  if (env.length > 0) reasons.push(`missing environment variables: ${env.join(', ')}`);
  const config = (requires?.config ?? []).filter((path) => !configValue(ctx.config, path));
  if (config.length > 0) reasons.push(`config not set: ${config.join(', ')}`);
  return reasons;
}
