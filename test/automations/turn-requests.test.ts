import { describe, expect, it } from 'vitest';
import type { PluginHost } from '../../kernel/host/index.js';
import { CallRegistry } from '../../kernel/turns/call-registry.js';
import { SessionDirectory } from '../../kernel/turns/sessions.js';
import { TaskLedger } from '../../kernel/turns/task-ledger.js';
import { createTurnRequestHandler } from '../../kernel/turns/turn-requests.js';
import { TurnService } from '../../kernel/turns/turn-service.js';
import type { TurnRequest } from '../../kernel/turns/types.js';
import { MAX_OPEN_REPORTED_TASKS } from '../../kernel/turns/reported-tasks.js';
import { MAX_RUNNING_CHILDREN } from '../../protocol/index.js';

const DESIGNATED: Record<string, string> = { sessions_spawn: 'sessions', sessions_send: 'sessions', sessions_list: 'sessions', automations: 'automations' };

function setup(config: Record<string, unknown> = {}, hold = false) {
  const host = { designatedPlugin: (tool: string) => DESIGNATED[tool], status: () => [], capabilitiesOf: () => ({}) } as unknown as PluginHost;
  const calls = new CallRegistry();
  const sessions = new SessionDirectory();
  const ledger = new TaskLedger(host, () => undefined);
  const started: TurnRequest[] = [];
  const turns = new TurnService({ assemble: () => ({ tools: [] }) as never, sessions, ledger, warn: () => undefined });
  turns.setRunner({ runTurn: (request) => (started.push(request), hold ? new Promise(() => undefined) : Promise.resolve({ reply: 'done' })) });
  const handler = createTurnRequestHandler({ config, host, calls, turns, sessions, ledger, agentKnown: (id) => id, probeTools: () => ['read'], agentOfSession: () => undefined, stopWork: async () => undefined });
  const signal = new AbortController().signal;
  const caller = (depth: number, pluginId = 'sessions') =>
    calls.begin(pluginId, { runId: `run-${depth}`, agentId: 'main', sessionKey: `agent:main:s${depth}`, trigger: 'user', depth, maxSpawnDepth: 2, tools: ['read', 'sessions_spawn'] }).token;
  const ask = (pluginId: string, method: string, params: unknown) => handler.request(pluginId, method, params, signal);
  return { ask, caller, started, handler, ledger };
}

async function refusal(promise: Promise<unknown>): Promise<{ reason: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return error as { reason: string; message: string };
  }
  throw new Error('expected a refusal');
}

describe('the kernel\'s turn services refuse what a plugin may not ask', () => {
  it('refuses a spawn deeper than maxSpawnDepth, naming the session and the limit', async () => {
    const { ask, caller, started } = setup();
    const ok = (await ask('sessions', 'turns/start', { kind: 'subagent', callToken: caller(1), message: 'go', waitMs: 5_000 })) as { state: string };
    expect(ok.state).toBe('succeeded');
    expect(started[0]).toMatchObject({ subagentDepth: 2, inheritedAllowlist: ['read', 'sessions_spawn'], trigger: 'subagent' });
    const deep = await refusal(ask('sessions', 'turns/start', { kind: 'subagent', callToken: caller(2), message: 'deeper' }));
    expect(deep.reason).toBe('SPAWN_DEPTH_EXCEEDED');
    expect(deep.message).toMatch(/session "agent:main:s2" is at spawn depth 2; a child would be at depth 3, deeper than tools.subagents.maxSpawnDepth \(2\)/);
    expect(started).toHaveLength(1);
  });

  it('caps the subagents one run may have running at once', async () => {
    const { ask, caller, started } = setup({}, true);
    const token = caller(0);
    for (let i = 0; i < MAX_RUNNING_CHILDREN; i++) await ask('sessions', 'turns/start', { kind: 'subagent', callToken: token, message: `child ${i}` });
    const refused = await refusal(ask('sessions', 'turns/start', { kind: 'subagent', callToken: token, message: 'one too many' }));
    expect(refused.reason).toBe('TOO_MANY_CHILDREN');
    expect(refused.message).toContain(`at most ${MAX_RUNNING_CHILDREN} at once`);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(started).toHaveLength(MAX_RUNNING_CHILDREN);
  });

  it('refuses a forged or another plugin\'s call token', async () => {
    const { ask, caller } = setup();
    expect((await refusal(ask('sessions', 'run/describe', { callToken: 'forged-token' }))).reason).toBe('UNKNOWN_CALL');
    const theirs = caller(0, 'fs');
    expect((await refusal(ask('sessions', 'run/describe', { callToken: theirs }))).reason).toBe('UNKNOWN_CALL');
    expect((await ask('fs', 'run/describe', { callToken: theirs })) as { runId: string }).toMatchObject({ runId: 'run-0', depth: 0 });
  });

  it('lets only the designated plugin start subagents, sends or cron runs', async () => {
    const { ask, caller, started } = setup();
    const token = caller(0, 'evil');
    for (const kind of ['subagent', 'send', 'cron']) {
      const refused = await refusal(ask('evil', 'turns/start', { kind, callToken: token, message: 'pwn', agentId: 'main', jobId: 'j', toolsAllow: ['*'], sessionKey: 'agent:main:x' }));
      expect(refused.reason, kind).toBe('NOT_DESIGNATED');
    }
    expect((await refusal(ask('evil', 'sessions/query', { callToken: token, op: 'list' }))).reason).toBe('NOT_DESIGNATED');
    expect(started).toEqual([]);
  });

  it('refuses a cron run without a finite cap, or in another agent\'s session', async () => {
    const { ask, started } = setup();
    expect((await refusal(ask('automations', 'turns/start', { kind: 'cron', agentId: 'main', jobId: 'j', message: 'x' }))).reason).toBe('INVALID_REQUEST');
    expect((await refusal(ask('automations', 'turns/start', { kind: 'cron', agentId: 'main', jobId: 'j', message: 'x', toolsAllow: ['*'] }))).message).toContain('no finite toolsAllow cap');
    const foreign = await refusal(ask('automations', 'turns/start', { kind: 'cron', agentId: 'main', jobId: 'j', message: 'x', toolsAllow: ['read'], sessionKey: 'agent:other:main' }));
    expect(foreign.reason).toBe('SESSION_NOT_VISIBLE');
    expect(started).toEqual([]);
  });

  it('lets agent-to-agent sends through only when enabled and both agents are listed', async () => {
    const closed = setup();
    expect((await refusal(closed.ask('sessions', 'turns/start', { kind: 'send', callToken: closed.caller(0), sessionKey: 'agent:ops:main', message: 'hi' }))).reason).toBe('AGENT_TO_AGENT_DENIED');
    const half = setup({ tools: { agentToAgent: { enabled: true, allow: ['main'] } } });
    expect((await refusal(half.ask('sessions', 'turns/start', { kind: 'send', callToken: half.caller(0), sessionKey: 'agent:ops:main', message: 'hi' }))).message).toContain('"ops" is not in tools.agentToAgent.allow');
    const open = setup({ tools: { agentToAgent: { enabled: true, allow: ['main', 'op*'] } } });
    await open.ask('sessions', 'turns/start', { kind: 'send', callToken: open.caller(0), sessionKey: 'agent:ops:main', message: 'hi', waitMs: 5_000 });
    expect(open.started[0]).toMatchObject({ agentId: 'ops', sessionKey: 'agent:ops:main', source: { agentId: 'main', sessionKey: 'agent:main:s0' }, subagentDepth: 0 });
    expect(open.started[0]!.inheritedAllowlist).toEqual(['read', 'sessions_spawn']); // never more than the sender held
  });

  it('records a bounded number of a plugin\'s unfinished reported tasks, and never a session it was not called for', async () => {
    const { handler, ledger } = setup();
    const report = (localId: string, state: string) => handler.notify('evil', 'tasks/report', { localId, kind: 'exec', state, title: 'flood', sessionKey: 'agent:main:main' });
    for (let i = 0; i <= MAX_OPEN_REPORTED_TASKS; i++) report(`t${i}`, 'running');
    const get = async (localId: string) => (await ledger.query({ id: `evil:${localId}`, limit: 1 }))[0];
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await get(`t${MAX_OPEN_REPORTED_TASKS - 1}`)).toMatchObject({ state: 'running', ownerPlugin: 'evil', agentId: '' });
    expect((await get('t0'))?.sessionKey).toBeUndefined(); // its word on the session is not taken
    expect(await get(`t${MAX_OPEN_REPORTED_TASKS}`)).toBeUndefined();
    report('t0', 'succeeded'); // an end frees a slot
    report('late', 'running');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await get('t0')).toMatchObject({ state: 'succeeded' });
    expect(await get('late')).toMatchObject({ state: 'running' });
  });
});
