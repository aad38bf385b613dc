/**
 * Which session an MCP client is. By default every client gets its own session key,
 * `agent:<id>:mcp:<uuid>`: never the agent's main session, so under sandbox mode `non-main` a
 * client is sandboxed, and two clients never share background runs or a sandbox. `--session S`
 * is the operator's explicit choice of one session for every client (`--session main` for the
 * agent's main session).
 */
import { randomUUID } from 'node:crypto';
import type { RunContext, ToolSet } from '../kernel.js';
import { assembleRun, type KernelSession } from '../kernel-session.js';
import type { CliContext } from '../context.js';

export function clientSessionKey(agentId: string): string {
  return `agent:${agentId.trim().toLowerCase()}:mcp:${randomUUID()}`;
}

export class ClientRuns {
  readonly agentId: string;
  /** Each client its own session (no `--session` given). */
  readonly perClient: boolean;

  /** Assembles the operator's run once, so an unknown agent or an unsafe workspace fails at startup. */
  constructor(
    ctx: CliContext,
    session: KernelSession,
    private readonly base: RunContext,
  ) {
    const toolSet = assembleRun(ctx, session, base);
    this.agentId = toolSet.run?.agentId ?? base.agentId ?? 'main';
    this.perClient = base.sessionKey === undefined;
  }

  /** The run of the next client to connect. */
  next(): RunContext {
    return this.perClient ? { ...this.base, sessionKey: clientSessionKey(this.agentId) } : this.base;
  }

  /** "session agent:main:mcp:… (this client's own)" for the startup line. */
  describeSession(run: RunContext, oneClient: boolean): string {
    if (!this.perClient) return `session ${run.sessionKey} (shared by every client)`;
    return oneClient ? `session ${run.sessionKey} (this client's own)` : `session: one per client (agent:${this.agentId}:mcp:<uuid>)`;
  }
}

/** What a client is told it gets: agent, session, sandbox, workspace. */
export function describeClientRun(toolSet: ToolSet, session: string, sandbox: string): string {
  const count = toolSet.tools.length;
  return [
    `${count} tool${count === 1 ? '' : 's'} for agent ${toolSet.run?.agentId ?? '(default)'}`,
    session,
    `sandbox ${sandbox}`,
    `workspace ${toolSet.workspace ?? '(unknown)'}`,
  ].join(' · ');
}
