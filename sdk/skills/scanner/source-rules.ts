/**
 * Rules on the scripts a skill ships (SPEC §6.5), run on source with comments stripped. A call
 * named `exec` counts as shell execution only when the file uses child_process and the callee
 * is a child_process function or a receiver proven to be child_process: `RegExp.exec` is not.
 */
import { LITERAL_SECRET_RULE } from './text-rules.js';
import { capFindings, evidenceOf, runLineRules, type LineRule, type SkillFinding } from './findings.js';
import { stripComments } from './strip-comments.js';

export const SOURCE_EXTENSIONS = ['.js', '.ts', '.mjs', '.cjs', '.mts', '.cts', '.jsx', '.tsx'] as const;

const EXEC_NAMES = ['exec', 'execSync', 'spawn', 'spawnSync', 'execFile', 'execFileSync'];
const EXEC_NAME = EXEC_NAMES.join('|');
const STANDARD_PORTS = new Set([80, 443, 8080, 8443, 3000]);
const NETWORK_SEND = /\bfetch\s*\(|(?<![\w$])post\s*\(|\.post\s*\(|\bhttps?\.request\s*\(/;

const LINE_RULES: readonly LineRule[] = [
  { ruleId: 'dynamic-code-execution', severity: 'critical', message: 'Dynamic code execution detected', pattern: /(?<![\w$.])eval\s*\(|\bnew\s+Function\s*\(/ },
  { ruleId: 'crypto-mining', severity: 'critical', message: 'Possible crypto-mining reference detected', pattern: /stratum\+tcp|stratum\+ssl|coinhive|cryptonight|xmrig/i },
  { ruleId: 'obfuscated-code', severity: 'warn', message: 'Hex-encoded string sequence detected (possible obfuscation)', pattern: /(?:\\x[0-9a-fA-F]{2}){6}/ },
  {
    ruleId: 'obfuscated-code',
    severity: 'warn',
    message: 'Large base64 payload with decode call detected (possible obfuscation)',
    pattern: /(?:\batob|\bBuffer\.from)\s*\(\s*['"`][A-Za-z0-9+/=]{200}/,
  },
  LITERAL_SECRET_RULE,
];

/** `import('child_process')`, awaited or not: a dynamic import binds the module as surely as a static one. */
const DYNAMIC_IMPORT = String.raw`(?:await\s+)?import\s*\(\s*['"\x60](?:node:)?child_process['"\x60]\s*\)`;

/** Names bound to child_process (the module) and to its exec-like functions, by import or require. */
function childProcessBindings(code: string): { modules: Set<string>; functions: Set<string> } {
  const modules = new Set(['cp', 'childProcess', 'child_process']);
  const functions = new Set(EXEC_NAMES);
  const from = String.raw`(?:require\s*\(\s*['"\x60](?:node:)?child_process['"\x60]\s*\)|from\s*['"](?:node:)?child_process['"]|${DYNAMIC_IMPORT})`;
  for (const m of code.matchAll(new RegExp(String.raw`(?:const|let|var|import)\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]{0,63})\s*(?:=\s*)?${from}`, 'g'))) modules.add(m[1]);
  // import('child_process').then((cp) => cp.exec(...)): the callback's parameter is the module.
  for (const m of code.matchAll(new RegExp(String.raw`${DYNAMIC_IMPORT}\s*\.\s*then\s*\(\s*(?:async\s*)?\(?\s*([A-Za-z_$][\w$]{0,63})`, 'g'))) modules.add(m[1]);
  for (const m of code.matchAll(new RegExp(String.raw`\{([^{}]{0,400})\}\s*(?:=\s*)?${from}`, 'g'))) {
    for (const part of m[1].split(',')) {
      const alias = part.trim().match(new RegExp(String.raw`^(${EXEC_NAME})\s*(?:as|:)\s*([A-Za-z_$][\w$]*)$`));
      if (alias) functions.add(alias[2]);
    }
  }
  return { modules, functions };
}

function dangerousExec(code: string, lines: readonly string[], file: string): SkillFinding[] {
  if (!code.includes('child_process')) return [];
  const { modules, functions } = childProcessBindings(code);
  const direct = new RegExp(String.raw`(?<![\w$.])(${[...functions].join('|')})\s*\(`);
  const member = new RegExp(String.raw`(?<![\w$])([A-Za-z_$][\w$]{0,63})\s*(?:\.\s*(?:${EXEC_NAME})|\[\s*['"\x60](?:${EXEC_NAME})['"\x60]\s*\])\s*\(`, 'g');
  const bracket = new RegExp(String.raw`(?<![\w$.])\[\s*['"\x60](?:${EXEC_NAME})['"\x60]\s*\]\s*\(`);
  const required = new RegExp(String.raw`(?:require\s*\(\s*['"\x60](?:node:)?child_process['"\x60]\s*\)|\(\s*${DYNAMIC_IMPORT}\s*\))\s*(?:\.\s*(?:${EXEC_NAME})|\[\s*['"\x60](?:${EXEC_NAME})['"\x60]\s*\])\s*\(`);
  const findings: SkillFinding[] = [];
  lines.forEach((line, index) => {
    const viaMember = [...line.matchAll(member)].some((m) => modules.has(m[1]));
    if (direct.test(line) || viaMember || bracket.test(line) || required.test(line)) {
      findings.push({ ruleId: 'dangerous-exec', severity: 'critical', file, line: index + 1, message: 'Shell command execution detected (child_process)', evidence: evidenceOf(line) });
    }
  });
  return findings;
}

function suspiciousNetwork(lines: readonly string[], file: string): SkillFinding[] {
  const pattern = /new\s+WebSocket\s*\(\s*['"`]wss?:\/\/[^'"`/:\s]{1,255}:(\d{1,5})/g;
  return lines.flatMap((line, index) =>
    [...line.matchAll(pattern)]
      .filter((m) => !STANDARD_PORTS.has(Number(m[1])))
      .map((): SkillFinding => ({ ruleId: 'suspicious-network', severity: 'warn', file, line: index + 1, message: 'WebSocket connection to non-standard port', evidence: evidenceOf(line) })),
  );
}

function exfiltration(lines: readonly string[], file: string): SkillFinding[] {
  const findings: SkillFinding[] = [];
  const reads = lines.findIndex((line) => /\breadFile(?:Sync)?\s*\(/.test(line));
  if (reads !== -1 && lines.some((line) => NETWORK_SEND.test(line))) {
    findings.push({ ruleId: 'potential-exfiltration', severity: 'warn', file, line: reads + 1, message: 'File read combined with network send — possible data exfiltration', evidence: evidenceOf(lines[reads]) });
  }
  lines.forEach((line, index) => {
    if (!/\bprocess\.env\b/.test(line)) return;
    const near = lines.slice(Math.max(0, index - 8), index + 9);
    if (near.some((l) => NETWORK_SEND.test(l))) {
      findings.push({ ruleId: 'env-harvesting', severity: 'critical', file, line: index + 1, message: 'Environment variable access combined with network send — possible credential harvesting', evidence: evidenceOf(line) });
    }
  });
  return findings;
}

export function scanSource(source: string, file: string): SkillFinding[] {
  const code = stripComments(source);
  const lines = code.split(/\r?\n/);
  return capFindings([...dangerousExec(code, lines, file), ...runLineRules(LINE_RULES, file, lines), ...suspiciousNetwork(lines, file), ...exfiltration(lines, file)]);
}
