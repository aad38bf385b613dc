/**
 * The audit of one layer: which tools it removed, by which kind of rule, and which
 * entries decided it. Feeds `explain()`, the CLI, and the model-facing "why is this tool
 * missing" message.
 */
import { createToolPolicyMatcher, type ToolPolicyLike } from '../../sdk/policy/index.js';
import { boundedNames, sanitizeAuditField } from './sanitize.js';
import type { PolicyRemoval, PolicyStep } from './types.js';

/** Deny entries that, each on its own, deny the tool (sorted, sanitized). */
function matchingDenyEntries(deny: readonly string[] | undefined, tool: string): string[] {
  if (!deny) return [];
  const hits = deny.filter((entry) => !createToolPolicyMatcher({ deny: [entry] })(tool));
  return [...new Set(hits.map(sanitizeAuditField))].sort();
}

function firstNonEmpty(a: string[], b: string[]): string[] {
  return a.length > 0 ? a : b;
}

/**
 * Removal records for the tools a step dropped. A tool counts as denied when the step's
 * deny list alone rejects it; otherwise the allow list did not admit it.
 */
export function auditStep(step: PolicyStep, expanded: ToolPolicyLike, removed: readonly string[]): PolicyRemoval[] {
  if (removed.length === 0) return [];
  const denyOnly = createToolPolicyMatcher({ deny: expanded.deny });
  const rawDeny = step.policy?.deny;
  const allowShown = boundedNames(step.policy?.allow ?? []).names;
  return removed.map((tool) => {
    const denied = !denyOnly(tool);
    const ruleKind = denied ? 'deny' : 'allow';
    return {
      tool,
      layer: step.layer,
      label: sanitizeAuditField(step.label),
      ruleKind,
      // Raw entries read best; a plugin-id entry only matches after expansion, so fall back.
      matchedRules: denied ? firstNonEmpty(matchingDenyEntries(rawDeny, tool), matchingDenyEntries(expanded.deny as string[] | undefined, tool)) : allowShown,
      configKey: step.configKeys?.[ruleKind],
    };
  });
}

/** One log line per rule kind, in the reference's shape. */
export function formatAuditLines(removals: readonly PolicyRemoval[]): string[] {
  const byRule = new Map<string, PolicyRemoval[]>();
  for (const removal of removals) {
    const rule = removal.ruleKind === 'deny' ? denyLabel(removal.label) : removal.label;
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
