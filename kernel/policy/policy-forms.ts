/**
 * Turning operator config (`allow`, `alsoAllow`, `deny`, `profile`) into plain allow/deny
 * policies, with the reference's rules for `alsoAllow`.
 */
import { resolveCoreToolProfilePolicy } from '../../protocol/vocabulary/index.js';
import { uniqueStrings } from '../../sdk/policy/index.js';
import type { ToolPolicy } from './types.js';

/** The config form every policy layer accepts. */
export interface ToolPolicyConfig {
  allow?: string[];
  alsoAllow?: string[];
  deny?: string[];
}

/**
 * `allow` plus `alsoAllow`. With no `allow` (or an empty one), `alsoAllow` is additive to
 * "everything", so it becomes `['*', ...alsoAllow]` and restricts nothing.
 */
export function pickToolPolicy(config: ToolPolicyConfig | undefined): ToolPolicy | undefined {
  if (!config) return undefined;
  const extra = Array.isArray(config.alsoAllow) && config.alsoAllow.length > 0 ? config.alsoAllow : undefined;
  let allow: string[] | undefined;
  if (Array.isArray(config.allow)) allow = extra ? uniqueStrings(config.allow.length === 0 ? ['*', ...extra] : [...config.allow, ...extra]) : config.allow;
  else if (extra) allow = uniqueStrings(['*', ...extra]);
  const deny = Array.isArray(config.deny) ? config.deny : undefined;
  if (!allow && !deny) return undefined;
  return { allow, deny };
}

/** A profile's policy, with `alsoAllow` merged in only when the profile restricts. */
export function profilePolicy(profile: string | undefined, alsoAllow: string[] | undefined): ToolPolicy | undefined {
  const base = resolveCoreToolProfilePolicy(profile?.trim());
  if (!base) return undefined;
  if (!alsoAllow || alsoAllow.length === 0) return base;
  return { allow: uniqueStrings([...base.allow, ...alsoAllow]) };
}
