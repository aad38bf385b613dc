import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedTurnRunner, type ScriptedTurnRunner } from '../../kernel/index.js';
import { startKernel, text, turnPlugins, type TestKernel } from './helpers.js';

/** The steps of a child that spawns `inner` (when given) and then waits for it. */
function spawnChain(depth: number, max: number): string {
  const steps: unknown[] = [{ tool: 'read', params: { path: 'notes.txt' } }];
  if (depth < max) steps.push({ tool: 'sessions_spawn', params: { task: spawnChain(depth + 1, max), label: `depth ${depth + 1}` } }, { tool: 'sessions_yield', params: { timeoutSeconds: 60 } });
  else steps.push({ tool: 'sessions_spawn', params: { task: 'one level too deep' } });
  return JSON.stringify({ steps });
}

describe('sessions and subagents through the turn runner', () => {
  let t: TestKernel;
  let runner: ScriptedTurnRunner;

  beforeAll(async () => {
    t = await startKernel((workspace) => ({
      plugins: turnPlugins(workspace),
      tools: { profile: 'coding', subagents: { maxSpawnDepth: 3 } },
      groups: { team: { tools: { deny: ['write'] } } },
      agents: { list: [{ id: 'main', default: true, workspace }, { id: 'other', workspace }] },
    }));
    writeFileSync(path.join(t.workspace, 'notes.txt'), 'shared notes\n');
    runner = createScriptedTurnRunner();
    t.kernel.registerTurnRunner(runner);
  });
  afterAll(async () => {
    await t.kernel.stop();
  });

  it('runs a spawn chain to depth 3, each child capped by its parent and the depth layer, and refuses a fourth level', async () => {
    // The top run is a group session whose group denies write: its children are not in the group, so only the inherited layer can keep write from them.
    const top = t.kernel.assembleTools({ groupId: 'team', runId: 'top-run' });
    expect(top.tools.map((tool) => tool.name)).not.toContain('write');
    const spawned = await top.execute('sessions_spawn', { task: spawnChain(1, 3), label: 'depth 1' });
    expect(spawned.outcome).toBe('ok');
    const waited = await top.execute('sessions_yield', { timeoutSeconds: 60 });
    expect(text(waited)).toMatch(/succeeded/);

    const byDepth = new Map(runner.turns.map((turn) => [turn.request.subagentDepth, turn]));
    expect([...byDepth.keys()].sort()).toEqual([1, 2, 3]);
    for (const [depth, turn] of byDepth) {
      const tools = t.kernel.assembleTools({ agentId: turn.request.agentId, sessionKey: turn.request.sessionKey, subagentDepth: depth, inheritedAllowlist: turn.request.inheritedAllowlist, trigger: turn.request.trigger });
      expect(turn.tools).toEqual(tools.tools.map((tool) => tool.name));
      // write: the parent chain never held it, so the inherited layer removes it at every depth.
      expect(tools.explain('write')).toMatchObject({ present: false, removal: { layer: 'inherited' } });
      // session_status: no subagent gets it (the subagent layer's fixed deny).
      expect(tools.explain('session_status')).toMatchObject({ present: false, removal: { layer: 'subagent', ruleKind: 'deny' } });
      // sessions_spawn: orchestrators (depth 1, 2) keep it; the leaf (depth 3 = maxSpawnDepth) loses it.
      if (depth < 3) expect(tools.explain('sessions_spawn')).toMatchObject({ present: true });
      else expect(tools.explain('sessions_spawn')).toMatchObject({ present: false, removal: { layer: 'subagent', ruleKind: 'deny', matchedRules: ['sessions_spawn'] } });
      expect(text(turn.results[0]!.result)).toContain('shared notes');
    }
    const leafSpawn = byDepth.get(3)!.results.find((r) => r.tool === 'sessions_spawn')!.result;
    expect(leafSpawn).toMatchObject({ outcome: 'denied', code: 'TOOL_REMOVED' });
    expect(runner.turns).toHaveLength(3); // the refused spawn started nothing
  });

  it('records every subagent as a task that ends succeeded, with its parent session', async () => {
    const tasks = await t.kernel.tasks.list({ agentId: 'main' });
    const subagents = tasks.filter((task) => task.kind === 'subagent');
    expect(subagents.length).toBeGreaterThanOrEqual(3);
    expect(subagents.every((task) => task.state === 'succeeded')).toBe(true);
    expect(subagents.some((task) => task.parentSessionKey === 'agent:main:group:team')).toBe(true);
  });

  it('keeps agent-to-agent sends off unless configured, and labels a same-agent send with its source session', async () => {
    const main = t.kernel.assembleTools({ runId: 'sender' });
    const denied = await main.execute('sessions_send', { sessionKey: 'agent:other:main', message: 'hello other' });
    expect(denied.isError).toBe(true);
    expect(text(denied)).toContain('AGENT_TO_AGENT_DENIED');
    const sent = await main.execute('sessions_send', { sessionKey: 'agent:main:inbox', message: 'hello inbox', timeoutSeconds: 30 });
    expect(sent.outcome).toBe('ok');
    expect(text(sent)).toMatch(/Reply from agent:main:inbox \(succeeded\)/);
    const history = await main.execute('sessions_history', { sessionKey: 'agent:main:inbox' });
    const messages = (history.details as { messages: { role: string; text: string; source?: { sessionKey: string } }[] }).messages;
    expect(messages[0]).toMatchObject({ role: 'user', text: 'hello inbox', source: { sessionKey: 'agent:main:main' } });
  });

  it('lists the agent\'s own sessions most recently active first, and reports a session\'s status', async () => {
    const main = t.kernel.assembleTools({ runId: 'lister' });
    const listed = await main.execute('sessions_list', { limit: 200 });
    expect(listed.outcome).toBe('ok');
    const sessions = (listed.details as { sessions: { sessionKey: string; agentId: string; updatedAt: number; messages: number; lastMessage?: string }[] }).sessions;
    // The earlier tests' sessions of agent main: the subagents, and the inbox that was sent a message.
    expect(sessions.length).toBeGreaterThanOrEqual(4);
    expect(sessions.every((s) => s.agentId === 'main')).toBe(true);
    const updated = sessions.map((s) => s.updatedAt);
    expect(updated).toEqual([...updated].sort((a, b) => b - a));
    expect(sessions.find((s) => s.sessionKey === 'agent:main:inbox')).toMatchObject({ messages: 2, lastMessage: expect.any(String) });
    expect(JSON.stringify(sessions)).not.toContain('"history"'); // counts, not the messages themselves

    const status = await main.execute('session_status', { sessionKey: 'agent:main:inbox' });
    expect(status.details).toMatchObject({ sessionKey: 'agent:main:inbox', agentId: 'main', running: 0, messages: 2, activeTasks: 0 });
    const own = await main.execute('session_status', {});
    expect(own.details).toMatchObject({ sessionKey: 'agent:main:main', agentId: 'main', trigger: 'user', depth: 0 });
    const other = await t.kernel.assembleTools({ agentId: 'other' }).execute('session_status', { sessionKey: 'agent:main:inbox' });
    expect(text(other)).toContain('SESSION_NOT_VISIBLE');
  });

  it('refuses to read another agent\'s session history', async () => {
    const other = await t.kernel.assembleTools({ agentId: 'other' }).execute('sessions_history', { sessionKey: 'agent:main:inbox' });
    expect(other.isError).toBe(true);
    expect(text(other)).toContain('SESSION_NOT_VISIBLE');
  });
});
