/**
 * The audit of one layer: which tools it removed, by which kind of rule, and which
 * entries decided it. Feeds `explain()`, the CLI, and the model-facing "why is this tool
 * missing" message.
 */
import { createToolPolicyMatcher, type ToolNameMatcher } from '../../sdk/policy/index.js';
import { boundedNames, sanitizeAuditField } from './sanitize.js';
import type { PolicyRemoval, PolicyStep } from './types.js';

/** Builds the removal record of one tool for one step; records are memoized per tool name. */
export type RemovalAuditor = (tool: string) => PolicyRemoval;

function entryMatchers(entries: readonly string[] | undefined): [string, ToolNameMatcher][] {
  return (entries ?? []).map((entry) => [entry, createToolPolicyMatcher({ deny: [entry] })]);
}

/** Deny entries that, each on its own, deny the tool (sorted, sanitized). */
function matchingEntries(matchers: readonly [string, ToolNameMatcher][], tool: string): string[] {
  const hits = matchers.filter(([, denies]) => !denies(tool)).map(([entry]) => sanitizeAuditField(entry));
  return [...new Set(hits)].sort();
}

/**
 * A tool counts as denied when the step's deny list alone rejects it; otherwise the allow
 * list did not admit it. Raw deny entries read best; a plugin-id entry only matches after
 * expansion, so the expanded entries are the fallback.
 */
export function createRemovalAuditor(step: PolicyStep, expandedDeny: readonly string[] | undefined, denyOnly: ToolNameMatcher): RemovalAuditor {
  let rawDeny: [string, ToolNameMatcher][] | undefined;
  let expanded: [string, ToolNameMatcher][] | undefined;
  let allowShown: string[] | undefined;
  // A deny removal is labelled by the deny key (`tools.allow` → `tools.deny`), as the reference audits it.
  const labels = { allow: sanitizeAuditField(step.label), deny: sanitizeAuditField(denyLabel(step.label)) };
  const memo = new Map<string, PolicyRemoval>();
  return (tool) => {
    const hit = memo.get(tool);
    if (hit) return hit;
    const denied = !denyOnly(tool);
    let matchedRules: string[];
    if (denied) {
      rawDeny ??= entryMatchers(step.policy?.deny);
      matchedRules = matchingEntries(rawDeny, tool);
      if (matchedRules.length === 0) matchedRules = matchingEntries((expanded ??= entryMatchers(expandedDeny)), tool);
    } else {
      matchedRules = allowShown ??= Object.freeze(boundedNames(step.policy?.allow ?? []).names) as string[];
    }
    const ruleKind = denied ? 'deny' : 'allow';
    const alsoAllowKey = ruleKind === 'allow' ? step.configKeys?.alsoAllow : undefined;
    const removal: PolicyRemoval = Object.freeze({ tool, layer: step.layer, label: labels[ruleKind], ruleKind, matchedRules, configKey: step.configKeys?.[ruleKind], ...(alsoAllowKey ? { alsoAllowKey } : {}) });
    memo.set(tool, removal);
    return removal;
  };
}

/** One log line per rule kind, in the reference's shape. */
export function formatAuditLines(removals: readonly PolicyRemoval[]): string[] {
  const byRule = new Map<string, PolicyRemoval[]>();
  for (const removal of removals) {
    const rule = removal.label;
    byRule.set(rule, [...(byRule.get(rule) ?? []), removal]);
  }
  return [...byRule].map(([rule, list]) => {
    const { names, truncated } = boundedNames(list.map((r) => r.tool).sort());
    const matched = [...new Set(list.filter((r) => r.ruleKind === 'deny').flatMap((r) => r.matchedRules))].sort();
    return `tool policy removed ${list.length} tool(s) via ${rule}: ${names.join(', ')}${truncated ? ', ...' : ''}${matched.length ? `; matched ${matched.join(', ')}` : ''}`;
  });
}

/** `tools.allow` → `tools.deny`; a label without `allow` gets `.deny` appended. */
export function denyLabel(label: string): string {
  if (label.includes('.allow')) return label.replaceAll('.allow', '.deny');
  if (/\ballow\b/u.test(label)) return label.replace(/\ballow\b/u, 'deny');
  return `${label}.deny`;
}
