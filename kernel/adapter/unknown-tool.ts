import type { PolicyRemoval, ToolExplanation } from '../policy/types.js';
import type { ToolResult } from '../gate/types.js';

/** Names a model may call, resolved by the policy pipeline for this run. */
export type ExplainTool = (toolName: string) => ToolExplanation;

function quoteList(entries: readonly string[]): string {
  return entries.map((entry) => `"${entry}"`).join(', ');
}

function howToRestore(tool: string, removal: PolicyRemoval): string {
  const key = removal.configKey;
  if (removal.ruleKind === 'deny') {
    const entries = removal.matchedRules.length ? quoteList(removal.matchedRules) : `"${tool}"`;
    return key ? `remove ${entries} from ${key}` : `remove ${entries} from the deny list of ${removal.label}`;
  }
  return key ? `add "${tool}" to ${key}` : `add "${tool}" to the allow list of ${removal.label}`;
}

/**
 * Turn "unknown tool" into an explanation (seed 000 §11 ②): which policy layer removed the
 * tool, by which rule and entries, and which config key an operator edits to bring it back.
 * The model is told not to retry, since only an operator can change the config.
 */
export function formatUnknownToolMessage(toolName: string, explanation: ToolExplanation | undefined): string {
  const head = `Unknown tool "${toolName}"`;
  if (!explanation || (!explanation.present && 'unknown' in explanation)) {
    return `${head}: no tool with this name exists in this run. Use one of the tools you were given.`;
  }
  if (explanation.present) {
    return `${head}: the tool policy allows it, but no enabled plugin provides it in this run. Continue without it.`;
  }
  const { removal } = explanation;
  const rule = removal.ruleKind === 'deny' ? 'deny rule' : 'allow list';
  const matched = removal.ruleKind === 'deny' && removal.matchedRules.length
    ? ` (matched ${quoteList(removal.matchedRules)})`
    : removal.ruleKind === 'allow' && removal.matchedRules.length
      ? ` (allowed: ${quoteList(removal.matchedRules)})`
      : '';
  return `${head}: it is not available in this run. The policy layer ${removal.label} removed it by its ${rule}${matched}. `
    + `An operator can make it available: ${howToRestore(toolName, removal)}. Do not retry this tool; continue without it.`;
}

/** The explanation as a model-facing error result; a failing `explain` falls back to the generic text. */
export function unknownToolResult(toolName: string, explain?: ExplainTool): ToolResult {
  let explanation: ToolExplanation | undefined;
  try {
    explanation = explain?.(toolName);
  } catch {
    explanation = undefined;
  }
  const message = formatUnknownToolMessage(toolName, explanation);
  const removal = explanation && !explanation.present && 'removal' in explanation ? explanation.removal : undefined;
  return {
    content: [{ type: 'text', text: message }],
    details: { status: 'error', tool: toolName, error: 'unknown_tool', ...(removal ? { removal: { ...removal } } : {}) },
    isError: true,
  };
}
