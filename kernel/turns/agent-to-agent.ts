/**
 * `tools.agentToAgent`: may a session of one agent send to a session of another? Its own
 * decision, separate from the tool policy that let the caller hold `sessions_send` at all:
 * holding the tool lets an agent talk to its own sessions; reaching another agent needs the
 * operator to enable it and list both agents.
 */
import { compileGlobs, matchesGlobs } from '../../sdk/policy/index.js';
import type { ToolsConfig } from '../config/tools-schema.js';
import { foldId } from '../policy/id-match.js';
import { TurnError } from './errors.js';

function listed(allow: readonly string[], agentId: string): boolean {
  return matchesGlobs(foldId(agentId), compileGlobs(allow.map(foldId)));
}

/** Throws AGENT_TO_AGENT_DENIED unless `from` may send to `to`. */
export function assertAgentToAgent(config: ToolsConfig['agentToAgent'], from: string, to: string): void {
  if (foldId(from) === foldId(to)) return;
  if (config?.enabled !== true) {
    throw new TurnError('AGENT_TO_AGENT_DENIED', `agent "${from}" may not send to agent "${to}": agent-to-agent messages are off (tools.agentToAgent.enabled)`);
  }
  const allow = config.allow ?? [];
  for (const agent of [from, to]) {
    if (!listed(allow, agent)) throw new TurnError('AGENT_TO_AGENT_DENIED', `agent "${from}" may not send to agent "${to}": "${agent}" is not in tools.agentToAgent.allow`);
  }
}
