/**
 * The allow/deny matcher: deny wins; an empty allow list allows everything not denied;
 * names and entries are normalized on both sides and core groups are expanded.
 */
import { matchesGlobs, type CompiledGlobs } from './glob.js';
import { compileToolList } from './compiled-lists.js';
import { readToolAllowlistIntersection } from './intersection.js';
import { normalizeToolPolicyName } from './normalize.js';
import { PolicyInputError, assertOptionalList, describeValue } from './errors.js';

/** An allow/deny pair as read from config or handed over by a caller. */
export interface ToolPolicyLike {
  allow?: readonly unknown[] | null;
  deny?: readonly unknown[] | null;
}

export type ToolNameMatcher = (name: unknown) => boolean;

const ALLOW_ALL: ToolNameMatcher = () => true;
const DENY_ALL: ToolNameMatcher = () => false;

/**
 * Build a matcher for one synchronous filtering pass. With `writeAllowsApplyPatch` (the
 * default), an allow that admits `write` also admits `apply_patch`, as the reference
 * runtime has always done; deny still wins.
 */
export function createToolPolicyMatcher(policy?: ToolPolicyLike | null, writeAllowsApplyPatch = true): ToolNameMatcher {
  if (!policy) return ALLOW_ALL;
  if (typeof policy !== 'object') throw new PolicyInputError('INVALID_POLICY', 'policy', `expected { allow?, deny? }, got ${describeValue(policy)}`);
  assertOptionalList(policy.allow, 'policy.allow');
  assertOptionalList(policy.deny, 'policy.deny');
  const restrictions = policy.allow && readToolAllowlistIntersection(policy.allow);
  if (restrictions) {
    const matchers = restrictions.map((allow) =>
      allow.length > 0 ? createToolPolicyMatcher({ deny: policy.deny, allow }, writeAllowsApplyPatch) : DENY_ALL,
    );
    return (name) => matchers.every((matches) => matches(name));
  }
  return memoizedMatcher(compileToolList(policy.allow), compileToolList(policy.deny), writeAllowsApplyPatch);
}

// Compiled lists are shared by content (see compiled-lists.ts), so a matcher for the same
// allow/deny pair can be shared too, and with it a memo of its decisions: every run asks
// about the same few dozen tool names. Both levels are bounded.
const MEMO_LIMIT = 2048;
const matcherCache = new WeakMap<CompiledGlobs, WeakMap<CompiledGlobs, [ToolNameMatcher | undefined, ToolNameMatcher | undefined]>>();

function memoizedMatcher(allow: CompiledGlobs, deny: CompiledGlobs, writeAllowsApplyPatch: boolean): ToolNameMatcher {
  // Nothing denied and everything (or nothing, i.e. no restriction) allowed: every name passes,
  // as `decide` would say. No memo then: a list seen once (a run's `['*', ...]` allowlist) would
  // fill one with every tool name of the surface for nothing.
  if (deny.size === 0 && (allow.size === 0 || allow.matchesAll)) return ALLOW_ALL;
  let byDeny = matcherCache.get(allow);
  if (!byDeny) matcherCache.set(allow, (byDeny = new WeakMap()));
  let pair = byDeny.get(deny);
  if (!pair) byDeny.set(deny, (pair = [undefined, undefined]));
  const slot = writeAllowsApplyPatch ? 0 : 1;
  const existing = pair[slot];
  if (existing) return existing;
  const memo = new Map<string, boolean>();
  const matcher: ToolNameMatcher = (name) => {
    const normalized = normalizeToolPolicyName(name);
    let decision = memo.get(normalized);
    if (decision === undefined) {
      decision = decide(normalized, allow, deny, writeAllowsApplyPatch);
      if (memo.size >= MEMO_LIMIT) memo.clear();
      memo.set(normalized, decision);
    }
    return decision;
  };
  pair[slot] = matcher;
  return matcher;
}

function decide(name: string, allow: CompiledGlobs, deny: CompiledGlobs, writeAllowsApplyPatch: boolean): boolean {
  if (deny.size > 0 && matchesGlobs(name, deny)) return false;
  if (allow.size === 0) return true;
  if (matchesGlobs(name, allow)) return true;
  return writeAllowsApplyPatch && name === 'apply_patch' && matchesGlobs('write', allow);
}

/** Whether one name passes one policy (`undefined` policy allows). */
export function isToolAllowedByPolicyName(name: unknown, policy?: ToolPolicyLike | null): boolean {
  return createToolPolicyMatcher(policy)(name);
}

/** Whether one name passes every policy; `undefined` entries allow. */
export function isToolAllowedByPolicies(name: unknown, policies: readonly (ToolPolicyLike | undefined | null)[]): boolean {
  return policies.every((policy) => isToolAllowedByPolicyName(name, policy));
}

/**
 * A runtime allowlist cap: `undefined` allows everything; otherwise every restriction (the
 * list itself, or each one of an intersection) must admit the name, and an empty
 * restriction admits nothing.
 */
export function createRuntimeToolMatcher(toolsAllow?: readonly unknown[] | null, writeAllowsApplyPatch = true): ToolNameMatcher {
  if (toolsAllow === undefined) return ALLOW_ALL;
  assertOptionalList(toolsAllow, 'toolsAllow');
  if (toolsAllow === null) return ALLOW_ALL;
  const restrictions = readToolAllowlistIntersection(toolsAllow) ?? [toolsAllow];
  const matchers = restrictions.map((allow) => (allow.length > 0 ? createToolPolicyMatcher({ allow }, writeAllowsApplyPatch) : DENY_ALL));
  // One restriction (the common case) is its own matcher: no closure between it and the caller.
  if (matchers.length === 1) return matchers[0]!;
  return (name) => matchers.every((matches) => matches(name));
}

/** Filter tools by one policy, compiling it once; no policy returns the same array. */
export function filterToolsByPolicy<T extends { name: string }>(tools: T[], policy?: ToolPolicyLike | null): T[] {
  if (!policy) return tools;
  if (tools.length === 0) return [];
  const matches = createToolPolicyMatcher(policy);
  return tools.filter((tool) => matches(tool.name));
}
