/**
 * Rules on a skill's text (SPEC §6.5): what a SKILL.md must not tell an agent to do. Applied to
 * SKILL.md and to shipped shell scripts, line by line. The workshop rules (prompt injection)
 * apply only to proposed skills, where an agent is writing instructions for itself.
 */
import { capFindings, runLineRules, type LineRule, type SkillFinding } from './findings.js';
import { LITERAL_SECRET } from './secrets.js';

// Commands that print the environment, or a script reading it: only these count as "env"
// (the bare word in prose such as "set the env var, see https://…" is not an exfiltration).
const ENV_SOURCE = String.raw`(?:process\.env|os\.environ|\$ENV\b|\$\{?ENV\b|\bprintenv\b|(?:^|[|;&\x60(]|\$\()\s*env\b)`;
const NETWORK_SINK = String.raw`(?:\bfetch\s*\(|\bcurl\b|\bwget\b|\bnc\s|https?:\/\/)`;

export const LITERAL_SECRET_RULE: LineRule = {
  ruleId: 'literal-secret',
  severity: 'critical',
  message: 'Skill text contains a recognized literal credential',
  pattern: LITERAL_SECRET,
  redact: '[REDACTED CREDENTIAL]',
};

export const SKILL_TEXT_RULES: readonly LineRule[] = [
  LITERAL_SECRET_RULE,
  {
    ruleId: 'shell-pipe-to-shell',
    severity: 'critical',
    message: 'Skill text pipes a download straight into a shell',
    pattern: /\b(?:curl|wget)\b.{0,120}?\|[ \t]{0,8}(?:sudo[ \t]+(?:-\S{1,20}[ \t]+){0,5})?(?:ba|z)?sh\b/,
  },
  {
    ruleId: 'secret-exfiltration',
    severity: 'critical',
    message: 'Skill text may send environment variables over the network',
    // Either order: `printenv | curl …` and `fetch('https://…' + process.env.KEY)`.
    pattern: new RegExp(`${ENV_SOURCE}.{0,80}?${NETWORK_SINK}|${NETWORK_SINK}.{0,80}?${ENV_SOURCE}`),
  },
  {
    ruleId: 'destructive-delete',
    severity: 'warn',
    message: 'Skill text contains a broad destructive delete',
    // `rm -rf` of /, ~, $HOME or . itself (with an optional trailing / or /*), not of a path below them.
    pattern: /\brm\s+(?:-[a-zA-Z]{0,8}(?:rf|fr)[a-zA-Z]{0,8}|-[rR]\s+-f|-f\s+-[rR]|--recursive\s+--force|--force\s+--recursive)\s+(?:--no-preserve-root\s+)?(?:\/|~|\$HOME|\$\{HOME\}|\.)\/?\*?(?=\s|$|;|&|\||["'`)])/,
  },
  { ruleId: 'unsafe-permissions', severity: 'warn', message: 'Skill text makes files writable by everyone', pattern: /\bchmod\s+(?:-R\s+)?0?777\b/ },
];

export const WORKSHOP_RULES: readonly LineRule[] = [
  {
    ruleId: 'prompt-injection-ignore-instructions',
    severity: 'critical',
    message: 'Skill text tells the agent to ignore its instructions',
    pattern: /\bignore\s+(?:all\s+|any\s+)?(?:the\s+)?(?:previous|prior|above|earlier|all|any)\s+(?:\w+\s+)?instructions\b/i,
  },
  { ruleId: 'prompt-injection-system', severity: 'critical', message: 'Skill text addresses the system prompt or hidden instructions', pattern: /\b(?:system\s+prompt|developer\s+message|hidden\s+instructions)\b/i },
  {
    ruleId: 'prompt-injection-tool',
    severity: 'critical',
    message: 'Skill text encourages bypassing tool approval',
    pattern: /\b(?:run|execute|invoke|call)\b.{0,60}\btools?\b.{0,60}\bwithout\b.{0,40}\b(?:permission|approval|asking|confirmation)\b/i,
  },
];

/** Scans skill text (SKILL.md, a shell script); `extra` adds rules (the workshop's). */
export function scanSkillText(text: string, file: string, extra: readonly LineRule[] = []): SkillFinding[] {
  return capFindings(runLineRules([...SKILL_TEXT_RULES, ...extra], file, text.split(/\r?\n/)));
}
