import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchCwd } from '../helpers/scratch-cwd.js';
import { ToolBridge } from '../../cli/serve/tool-bridge.js';
import { hookFilterProblems } from '../../kernel/assembly/hooks.js';
import { createKernel, type Kernel, type PincerConfig } from '../../kernel/index.js';

const root = path.resolve(import.meta.dirname, '../..');
const echo = path.join(root, 'dist/test/fixtures/plugins/echo.js');
const crash = path.join(root, 'dist/test/fixtures/plugins/crash-on-start.js');
const quiet = () => undefined;
// The agents' workspace: not the checkout, where the fixture plugins live (plugin code inside a workspace is refused).
const cwd = mkdtempSync(path.join(tmpdir(), 'pincer-kernel-ws-'));

function text(result: { content: { type: string; text?: string }[] }): string {
  return result.content.map((block) => block.text ?? '').join('');
}

describe('the kernel end to end, with real plugin processes', () => {
  let kernel: Kernel;
  const config: PincerConfig = {
    plugins: [{ id: 'echo', module: echo, coreTools: ['read'] }], // echo serves the core name `read` by designation
    tools: { deny: ['env'] },
    agents: {
      list: [
        { id: 'main', default: true, sandbox: { mode: 'non-main', backend: 'mem' } },
        { id: 'ops', sandbox: { mode: 'all', backend: 'docker' } },
      ],
    },
  };

  beforeAll(async () => {
    kernel = createKernel(config, { logger: quiet, cwd });
    await kernel.start();
  });
  afterAll(async () => {
    await kernel.stop();
  });

  it('assembles the policy-filtered tools synchronously, without touching the plugin', () => {
    const before = kernel.plugins()[0].inflight;
    const toolSet = kernel.assembleTools({ agentId: 'main' });
    expect(toolSet).not.toBeInstanceOf(Promise);
    const names = toolSet.tools.map((t) => t.name);
    expect(names).toContain('echo');
    expect(names).not.toContain('env');
    expect(kernel.plugins()[0].inflight).toBe(before);
    expect(toolSet.tools.find((t) => t.name === 'echo')?.inputSchema).toMatchObject({ type: 'object', properties: {} });
  });

  it('runs a call in the plugin process and returns its result', async () => {
    const result = await kernel.assembleTools().execute('echo', { a: 1 });
    expect(JSON.parse(text(result))).toEqual({ a: 1 });
  });

  it('coerces a JSON string from a streaming provider into params', async () => {
    const result = await kernel.assembleTools().execute('echo', '{"b":2}');
    expect(JSON.parse(text(result))).toEqual({ b: 2 });
  });

  it('explains a tool the policy removed instead of calling it unknown', async () => {
    const toolSet = kernel.assembleTools();
    expect(toolSet.explain('env')).toMatchObject({ present: false, removal: { layer: 'global', ruleKind: 'deny', configKey: 'tools.deny' } });
    const result = await toolSet.execute('env', {});
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/tools\.deny/);
  });

  it("routes a sandboxed session's workspace requests to the backend plugin that serves it", async () => {
    const toolSet = kernel.assembleTools({ agentId: 'main', sessionKey: 'agent:main:telegram:group:1' });
    expect(toolSet.sandbox).toEqual({ mode: 'non-main', sandboxed: true, backend: 'mem' });
    const result = await toolSet.execute('read', { path: 'notes.txt' });
    expect(text(result)).toBe('mem:notes.txt');
  });

  it('fails a workspace request with an operator-shaped message when no plugin provides the backend', async () => {
    const toolSet = kernel.assembleTools({ agentId: 'ops' });
    const result = await toolSet.execute('read', { path: 'x' });
    expect(result.isError).toBe(true);
    expect(result.error?.message).toMatch(/no plugin provides the sandbox backend "docker"/);
    expect(result.error?.message).toMatch(/sandbox-docker.*agents\.ops\.sandbox\.mode to "off"/);
  });

  it('refuses a run for an agent the config does not list, naming the configured ones', () => {
    expect(() => kernel.assembleTools({ agentId: 'mian' })).toThrow(/no agent "mian" in agents.list \(configured: main, ops\)/);
  });

  it('emits diagnostics without raw params', async () => {
    const events: { type: string }[] = [];
    const off = kernel.diagnostics.on('*', (event) => events.push(event as never));
    await kernel.assembleTools().execute('echo', { secret: 'hunter2' });
    off();
    expect(events.map((e) => e.type)).toEqual(['tool.execution.started', 'tool.execution.completed']);
    expect(JSON.stringify(events)).not.toContain('hunter2');
  });
});

describe('required plugins', () => {
  it('blocks every call of an agent whose required plugin failed, instead of running without it', async () => {
    const kernel = createKernel(
      {
        plugins: [{ id: 'echo', module: echo }, { id: 'guard', module: crash, required: true }],
        agents: { list: [{ id: 'main', plugins: ['echo', 'guard'] }] },
      },
      { logger: quiet, cwd },
    );
    await kernel.start();
    try {
      const result = await kernel.assembleTools().execute('echo', { a: 1 });
      expect(result.details).toMatchObject({ status: 'blocked' });
      expect(text(result)).toMatch(/required plugin/);
      expect(text(result)).toMatch(/"guard"/);
    } finally {
      await kernel.stop();
    }
  });
});

describe('plugin hooks through the kernel', () => {
  const guard = path.join(root, 'dist/test/fixtures/plugins/guard-hook.js');
  let kernel: Kernel;
  beforeAll(async () => {
    kernel = createKernel({ plugins: [{ id: 'guard', module: guard }] }, { logger: quiet, cwd });
    await kernel.start();
  });
  afterAll(async () => {
    await kernel.stop();
  });

  it('returns a structured blocked result when a hook blocks, and the tool never runs', async () => {
    const result = await kernel.assembleTools().execute('danger', {});
    expect(result.details).toMatchObject({ status: 'blocked', reason: 'danger is not allowed here' });
    expect(text(result)).not.toContain('ran danger');
  });

  it('applies params a hook rewrites', async () => {
    expect(text(await kernel.assembleTools().execute('greet', { name: 'model' }))).toBe('hello operator');
  });

  it('fails the call closed when a hook throws: a blocked result, not a throw', async () => {
    const result = await kernel.assembleTools().execute('explode', {});
    expect(result).toMatchObject({ outcome: 'blocked', code: 'POLICY_HOOK_FAILED', isError: true, retryable: false });
  });
});

async function until(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('runs: loop history and approvals that outlive a tool set (24.2)', () => {
  let kernel: Kernel;
  const loopConfig: PincerConfig = {
    plugins: [{ id: 'echo', module: echo }],
    tools: { loopDetection: { enabled: true, warningThreshold: 2, criticalThreshold: 4, globalCircuitBreakerThreshold: 6 } },
  };
  beforeAll(async () => {
    kernel = createKernel(loopConfig, { cwd: scratchCwd(), logger: quiet });
    await kernel.start();
  });
  afterAll(async () => {
    await kernel.stop();
  });

  it('flags a loop across one assembly per turn in the same session, as the README pattern does', async () => {
    // `cancelled-count` answers the same every time: identical calls, identical outcomes, one per turn.
    const outcomes: string[] = [];
    for (let turn = 0; turn < 6; turn++) outcomes.push((await kernel.assembleTools({ sessionKey: 's1' }).execute('cancelled-count', {})).outcome);
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'blocked', 'blocked']);
    const toolSet = kernel.assembleTools({ sessionKey: 's1' });
    expect(toolSet.run.runId).toBe('session:main:s1');
    expect(await toolSet.execute('cancelled-count', {})).toMatchObject({ outcome: 'blocked', code: 'LOOP_DETECTED' });
  });

  it('scopes the history to an explicit run id: the next run of the session starts clean, and the id survives re-assembly', async () => {
    const outcomes: string[] = [];
    for (let turn = 0; turn < 6; turn++) outcomes.push((await kernel.assembleTools({ sessionKey: 's2', runId: 'r1' }).execute('cancelled-count', {})).outcome);
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'blocked', 'blocked']);
    expect((await kernel.assembleTools({ sessionKey: 's2', runId: 'r2' }).execute('cancelled-count', {})).outcome).toBe('ok');
  });

  it("keeps a run's loop history across pincer serve's rebuild on a tool-list change (19.8)", async () => {
    const silent = Object.assign(() => undefined, { error: quiet, warn: quiet, info: quiet, debug: quiet });
    const bridge = new ToolBridge(kernel as never, { sessionKey: 'served' }, silent);
    try {
      const outcomes: string[] = [];
      for (let i = 0; i < 3; i++) outcomes.push((await bridge.toolSet.execute('cancelled-count', {})).outcome);
      const before = bridge.toolSet;
      await bridge.toolSet.execute('add-tool', {});
      await until(() => bridge.toolSet !== before, 'the bridge to rebuild on the list change');
      for (let i = 0; i < 2; i++) outcomes.push((await bridge.toolSet.execute('cancelled-count', {})).outcome);
      expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'blocked']);
    } finally {
      bridge.close();
    }
  });

  it('puts the run id on every diagnostics event, including calls that never reach the gate', async () => {
    const events: { type: string; runId?: string }[] = [];
    const off = kernel.diagnostics.on('*', (event) => events.push(event));
    const toolSet = kernel.assembleTools({ sessionKey: 's3', runId: 'host-run-7' });
    await toolSet.execute('echo', { n: 1 });
    await toolSet.execute('nope', {});
    off();
    expect(events.map((e) => e.type)).toEqual(['tool.execution.started', 'tool.execution.completed', 'tool.execution.rejected']);
    expect(new Set(events.map((e) => e.runId))).toEqual(new Set(['host-run-7']));
  });

  it('refuses one run id for two sessions (runs never share history or approvals)', () => {
    kernel.assembleTools({ sessionKey: 'a', runId: 'shared' });
    expect(() => kernel.assembleTools({ sessionKey: 'b', runId: 'shared' })).toThrow(expect.objectContaining({ name: 'KernelUsageError', code: 'RUN_CONFLICT' }));
  });
});

describe('toolsChanged (24.4)', () => {
  it('fires with the plugin, its state and the tools added, only when a list changed, and never during stop()', async () => {
    const kernel = createKernel({ plugins: [{ id: 'echo', module: echo }, { id: 'crashy', module: path.join(root, 'dist/test/fixtures/plugins/crash-mid-call.js') }] }, { cwd: scratchCwd(), logger: quiet });
    const changes: unknown[] = [];
    kernel.on('toolsChanged', (change) => changes.push(change));
    await kernel.start();
    expect(changes).toEqual([]);
    await kernel.assembleTools().execute('add-tool', {});
    await until(() => changes.length > 0, 'the list change');
    expect(changes).toEqual([{ pluginId: 'echo', state: 'ready', added: ['added'], removed: [], updated: [] }]);

    // A crash and restart with the same tools changes no run's list: no event.
    changes.length = 0;
    await kernel.assembleTools().execute('boom', {});
    await until(() => kernel.plugins().find((p) => p.id === 'crashy')?.state === 'ready', 'the restart');
    expect(changes).toEqual([]);

    await kernel.stop();
    expect(changes).toEqual([]);
  });
});

describe('hook tools filters are checked at registration (9.11)', () => {
  const guard = path.join(root, 'dist/test/fixtures/plugins/bad-hook-filter.js');

  it('refuses a filter entry holding a control character, glob or not', () => {
    const known = (name: string) => name === 'exec';
    expect(hookFilterProblems(['exec\u0001web_*', 'ex\u0000ec', 'web_*', 'exec'], known)).toEqual(['"exec\\u0001web_*" contains a control character', '"ex\\u0000ec" contains a control character']);
  });

  it('fails every call closed, naming the plugin, when a guard filters on a name that is not a canonical tool', async () => {
    const logs: string[] = [];
    const kernel = createKernel({ plugins: [{ id: 'bad-filter', module: guard }] }, { cwd: scratchCwd(), logger: (record) => logs.push(record.message) });
    await kernel.start();
    try {
      expect(logs.join('\n')).toMatch(/plugin "bad-filter" registers before_tool_call with an invalid tools filter \("Agent" is not a canonical tool name \(write "agent"\)\)/);
      const result = await kernel.assembleTools().execute('agent_tool', {});
      expect(result).toMatchObject({ outcome: 'blocked', code: 'POLICY_HOOK_FAILED' });
      expect(logs.join('\n')).toMatch(/before_tool_call hook of plugin "bad-filter" has an invalid tools filter/);
    } finally {
      await kernel.stop();
    }
  });

  it('runs the guard on the tools its valid filter names', async () => {
    const kernel = createKernel({ plugins: [{ id: 'bad-filter', module: guard, env: { HOOK_TOOLS: 'agent_tool' } }] }, { cwd: scratchCwd(), logger: quiet });
    await kernel.start();
    try {
      expect(await kernel.assembleTools().execute('agent_tool', {})).toMatchObject({ outcome: 'blocked', code: 'HOOK_BLOCKED' });
    } finally {
      await kernel.stop();
    }
  });
});

describe('a missing or failed required plugin, in every report (23.3, 23.4)', () => {
  it('blocks calls during a restart attempt too, and says so in toolSet.blocked and explain', async () => {
    const marker = path.join(mkdtempSync(path.join(tmpdir(), 'pincer-crash-')), 'marker');
    const kernel = createKernel(
      {
        plugins: [
          { id: 'echo', module: echo },
          { id: 'guard', module: path.join(root, 'dist/test/fixtures/plugins/crash-then-hang.js'), required: true, env: { CRASH_MARKER: marker } },
        ],
        agents: { list: [{ id: 'main', plugins: ['echo', 'guard'] }] },
      },
      { cwd: scratchCwd(), logger: quiet },
    );
    await kernel.start();
    try {
      // After its crash the guard is restarted and hangs before its handshake: `starting`, not usable.
      await until(() => kernel.plugins().some((p) => p.id === 'guard' && p.state === 'starting' && p.restarts > 0), 'the restart attempt');
      const toolSet = kernel.assembleTools();
      expect(await toolSet.execute('echo', { a: 1 })).toMatchObject({ outcome: 'blocked', code: 'REQUIRED_PLUGIN_UNAVAILABLE', isError: true });
      expect(toolSet.blocked).toMatchObject({ code: 'REQUIRED_PLUGIN_UNAVAILABLE', plugins: [{ pluginId: 'guard', state: 'starting' }] });
      expect(toolSet.explain('echo')).toMatchObject({ present: true, callsBlocked: { code: 'REQUIRED_PLUGIN_UNAVAILABLE' } });
    } finally {
      await kernel.stop();
    }
  });
});
