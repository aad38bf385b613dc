/**
 * Arguments that fail a tool's own schema are the model's mistake, not the plugin's failure: they
 * come back as an ordinary error result in the `Error [CODE]: … Hint: …` shape every tool uses,
 * naming each bad argument in plain words, never as a validator's raw report.
 */
import type { z } from 'zod';
import type { ToolInvokeResult } from '../../protocol/index.js';
import { errorResult } from '../tool-results.js';

const MAX_ISSUES = 5;

export function invalidArgumentsResult(tool: string, error: z.ZodError): ToolInvokeResult {
  const issues = error.issues.slice(0, MAX_ISSUES).map(describeIssue);
  const more = error.issues.length > MAX_ISSUES ? `; and ${error.issues.length - MAX_ISSUES} more` : '';
  return errorResult('INVALID_PARAMS', `Invalid arguments for ${tool}: ${issues.join('; ')}${more}.`, `Call ${tool} again with arguments that match its parameter schema.`, {
    issues: error.issues.map((issue) => ({ path: argumentPath(issue.path), message: issue.message })),
  });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = argumentPath(issue.path) || '(arguments)';
  // "expected string, received undefined" reads better as what it means.
  if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return `${where} is required (expected ${issue.expected})`;
  if (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1) return `${where} must not be empty`;
  return `${where}: ${issue.message}`;
}

/** `edits[0].oldText` from zod's path segments. */
function argumentPath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('');
}
