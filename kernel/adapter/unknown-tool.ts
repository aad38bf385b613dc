import type { PolicyRemoval, ToolExplanation } from '../policy/types.js';
import type { ToolResult } from '../gate/types.js';
import type { PluginAvailability } from './call-result.js';

/** Names a model may call, resolved by the policy pipeline for this run. */
export type ExplainTool = (toolName: string) => ToolExplanation;

const MAX_LISTED = 8;
const DO_NOT_RETRY = 'Only an operator can change the tool policy; do not retry this tool, continue without it.';

function quoteList(entries: readonly string[]): string {
  const shown = entries.slice(0, MAX_LISTED).map((entry) => `"${entry}"`).join(', ');
  return entries.length > MAX_LISTED ? `${shown}, …` : shown;
}

/** Which rule removed it, by the config key that holds the rule (a group's sender rule names its real key). */
function describeRule(removal: PolicyRemoval): string {
  const key = removal.configKey ?? removal.label;
  if (removal.ruleKind === 'deny') {
    return `the ${removal.layer} policy layer denies it (${key}${removal.matchedRules.length ? ` matched ${quoteList(removal.matchedRules)}` : ''})`;
  }
  return `the ${removal.layer} policy layer does not allow it (${key}${removal.matchedRules.length ? ` allows only ${quoteList(removal.matchedRules)}` : ' is an empty allow list'})`;
}

/**
 * The model-facing text for a call of a tool this run does not hold, the same in every door
 * (library, `pincer call`, MCP): which layer removed it and the config key that holds the rule,
 * so a transcript tells an operator where to look. It never says how to change the policy
 * (an agent that can write files must not be coached to edit its own fences); `pincer explain`
 * does that for the operator.
 */
export function formatUnknownToolMessage(toolName: string, explanation: ToolExplanation | undefined): string {
  if (explanation && !explanation.present && 'removal' in explanation) {
    return `Tool "${toolName}" is not available in this run: ${describeRule(explanation.removal)}. ${DO_NOT_RETRY}`;
  }
  if (explanation && (explanation.present || ('unknown' in explanation && explanation.coreTool))) {
    return `Tool "${toolName}" is not available in this run: no enabled plugin provides it. Continue without it.`;
  }
  return `Unknown tool "${toolName}": no tool with this name exists in this run. Use one of the tools you were given.`;
}

/** The text for a tool whose plugin is failed or restarting: the plugin's state and last error. */
export function formatUnavailablePluginMessage(toolName: string, plugin: PluginAvailability): string {
  const last = plugin.lastError ? ` (last error: ${plugin.lastError.code}: ${plugin.lastError.message})` : '';
  const next = plugin.state === 'restarting' || plugin.state === 'starting'
    ? 'It is being restarted; the same call may succeed shortly.'
    : 'It will not come back in this run without an operator; continue without it.';
  return `Tool "${toolName}" is unavailable: its plugin "${plugin.id}" is ${plugin.state}${last}. ${next}`;
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
  const code = removal ? 'TOOL_REMOVED' : 'UNKNOWN_TOOL';
  return {
    content: [{ type: 'text', text: message }],
    details: { status: 'error', tool: toolName, error: { code, message }, ...(removal ? { removal: { ...removal } } : {}) },
    isError: true,
  };
}
