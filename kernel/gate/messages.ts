/** Model- and operator-facing texts of the call path, in one place. */

export const BLOCKED_BY_TRUSTED_POLICY = 'The tool call was blocked by a trusted tool policy.';
export const BLOCKED_BY_HOOK = 'The tool call was blocked by a plugin before_tool_call hook.';
export const HOOK_FAILED = 'The tool call was blocked because a before_tool_call check failed; the tool did not run.';
export const PARAMS_CHANGED_AFTER_TRUSTED_APPROVAL =
  'The tool call parameters were changed after a trusted approval, so the approval no longer covers them; the tool did not run.';
export const APPROVAL_VOID =
  'The approval no longer applies: the tool definition, the parameters or the sandbox changed after it was given. The tool did not run.';
export const APPROVAL_TIMED_OUT = 'The approval request timed out; the tool did not run.';
export const APPROVAL_CANCELLED = 'The approval request was cancelled; the tool did not run.';
export const APPROVAL_REQUEST_FAILED = 'The approval request could not be delivered; the tool did not run.';
export const INVALID_PARAMS = 'Tool parameters must be a JSON object.';

/** A denial is final; the model must neither retry nor coach the user to approve. */
export const APPROVAL_DENIED = [
  'The user denied this tool call; it did not run.',
  'The denial is final and the approval request is closed. Do not suggest /approve or any other approval command.',
  'Do not repeat this tool call and do not ask the user to approve it again.',
  'If the user still wants this done, explain that a new tool call will start a new approval request.',
].join('\n');

/** Runs started without a person at an approval-capable surface (cron, background…). */
export function approvalUnavailable(trigger: string | undefined): string {
  const kind = trigger && trigger !== 'user' ? trigger : 'non-interactive';
  return `Approval unavailable: no approval surface for ${kind} runs, so this call cannot be approved and did not run.`;
}

/** Log line for a failed before-call check (never includes params). */
export function hookFailedLogLine(toolName: string, toolCallId: string | undefined, cause: string): string {
  return `before_tool_call hook failed: tool=${toolName}${toolCallId ? ` toolCallId=${toolCallId}` : ''} error=${cause}`;
}
