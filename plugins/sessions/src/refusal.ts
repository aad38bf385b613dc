/** A refusal from the kernel's turn services as a result the model can read (anything else is rethrown). */
import { TurnRefusedError } from '../../../sdk/plugin-api.js';
import { errorResult } from '../../../sdk/tool-results.js';
import type { ToolInvokeResult } from '../../../protocol/index.js';

const HINTS: Readonly<Record<string, string>> = {
  SPAWN_DEPTH_EXCEEDED: 'Do the work in this session instead of spawning deeper.',
  TOO_MANY_CHILDREN: 'Call sessions_yield to collect the running subagents first.',
  SESSION_NOT_VISIBLE: 'Use sessions_list to see the sessions you may address.',
  AGENT_TO_AGENT_DENIED: 'Send only to your own sessions.',
  NO_TURN_RUNNER: 'This host cannot run other sessions; do the work here.',
};

export async function refusalAsResult(run: () => Promise<ToolInvokeResult>): Promise<ToolInvokeResult> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof TurnRefusedError) return errorResult(error.reason, error.message, HINTS[error.reason]);
    throw error;
  }
}
