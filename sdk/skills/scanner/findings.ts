/**
 * Findings and the per-rule cap: a file reports at most 32 findings per rule, then one
 * `<ruleId>-truncated` finding that says how many more there were.
 */
import type { SkillFinding } from '../../../protocol/index.js';

export type Severity = SkillFinding['severity'];
export type { SkillFinding };

export const MAX_FINDINGS_PER_RULE = 32;
const MAX_EVIDENCE_CHARS = 160;

export interface LineRule {
  ruleId: string;
  severity: Severity;
  message: string;
  pattern: RegExp;
  /** Shown instead of the matched text (credentials are never echoed). */
  redact?: string;
}

export function evidenceOf(text: string): string {
  const trimmed = text.trim();
  return trimmed.length > MAX_EVIDENCE_CHARS ? `${trimmed.slice(0, MAX_EVIDENCE_CHARS - 1)}…` : trimmed;
}

/** Caps each rule's findings for one file. */
export function capFindings(findings: readonly SkillFinding[]): SkillFinding[] {
  const counts = new Map<string, number>();
  const out: SkillFinding[] = [];
  for (const finding of findings) {
    const seen = (counts.get(finding.ruleId) ?? 0) + 1;
    counts.set(finding.ruleId, seen);
    if (seen <= MAX_FINDINGS_PER_RULE) out.push(finding);
  }
  for (const [ruleId, count] of counts) {
    if (count <= MAX_FINDINGS_PER_RULE) continue;
    const first = findings.find((f) => f.ruleId === ruleId)!;
    const omitted = count - MAX_FINDINGS_PER_RULE;
    out.push({ ruleId: `${ruleId}-truncated`, severity: first.severity, file: first.file, line: 0, message: `${omitted} additional ${ruleId} matches omitted after ${MAX_FINDINGS_PER_RULE} findings`, evidence: '' });
  }
  return out;
}

/** Runs line rules over text; `lines` may differ from the text shown as evidence (comments stripped). */
export function runLineRules(rules: readonly LineRule[], file: string, lines: readonly string[]): SkillFinding[] {
  const findings: SkillFinding[] = [];
  lines.forEach((line, index) => {
    for (const rule of rules) {
      if (!rule.pattern.test(line)) continue;
      findings.push({ ruleId: rule.ruleId, severity: rule.severity, file, line: index + 1, message: rule.message, evidence: rule.redact ?? evidenceOf(line) });
    }
  });
  return findings;
}

export const hasCritical = (findings: readonly SkillFinding[]): boolean => findings.some((f) => f.severity === 'critical');
