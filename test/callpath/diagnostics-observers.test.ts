import { describe, expect, it } from 'vitest';
import { createDiagnosticsEmitter, type DiagnosticsEvent } from '../../kernel/diagnostics/index.js';
import { createToolGate, notifyObservers, buildAfterCallEvent, type AfterToolCallEvent } from '../../kernel/gate/index.js';
import { ctx, hook, recordingTool } from './helpers.js';

function collect() {
  const diagnostics = createDiagnosticsEmitter();
  const events: DiagnosticsEvent[] = [];
  diagnostics.on('*', (e) => events.push(e));
  return { diagnostics, events };
}

const SECRET = 'sk-abcdefghijklmnopqrstuvwx';

describe('diagnostics events', () => {
  it('emits started then completed with ids, normalized name and duration, never params or output', async () => {
    const { diagnostics, events } = collect();
    const gate = createToolGate({ diagnostics, runContext: { runId: 'r1', sessionKey: 's1', agentId: 'main' } });
    await gate.wrap(recordingTool('Bash')).execute({ command: `curl -H ${SECRET}` }, ctx('c1'));
    expect(events.map((e) => e.type)).toEqual(['tool.execution.started', 'tool.execution.completed']);
    expect(events[1]).toMatchObject({ runId: 'r1', sessionKey: 's1', agentId: 'main', toolCallId: 'c1', toolName: 'exec', isError: false });
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(JSON.stringify(events)).not.toContain('ran Bash');
  });

  it('emits blocked with the denied reason for a veto', async () => {
    const { diagnostics, events } = collect();
    await createToolGate({ diagnostics, hooks: [hook('g', { block: true, blockReason: 'nope' })] })
      .wrap(recordingTool()).execute({}, ctx());
    expect(events).toMatchObject([{ type: 'tool.execution.blocked', deniedReason: 'plugin-before-tool-call', reason: 'nope' }]);
  });

  it('emits error with the error class for gate failures and tool failures', async () => {
    const { diagnostics, events } = collect();
    await createToolGate({ diagnostics, hooks: [hook('g', 'garbage')] }).wrap(recordingTool()).execute({}, ctx()).catch(() => undefined);
    const failing = recordingTool('read', { execute: async () => { throw new TypeError(`bad ${SECRET}`); } });
    await createToolGate({ diagnostics }).wrap(failing).execute({}, ctx()).catch(() => undefined);
    expect(events.filter((e) => e.type === 'tool.execution.error')).toMatchObject([
      { errorClass: 'CallPathError:POLICY_HOOK_FAILED', stage: 'gate' },
      { errorClass: 'TypeError', stage: 'tool' },
    ]);
    expect(JSON.stringify(events)).not.toContain(SECRET);
  });

  it('keeps a throwing listener away from the call', async () => {
    const listenerErrors: unknown[] = [];
    const diagnostics = createDiagnosticsEmitter((e) => listenerErrors.push(e));
    diagnostics.on('tool.execution.started', () => { throw new Error('listener bug'); });
    const result = await createToolGate({ diagnostics }).wrap(recordingTool()).execute({}, ctx());
    expect(result.content).toHaveLength(1);
    expect(listenerErrors).toHaveLength(1);
  });

  it('unsubscribes', () => {
    const diagnostics = createDiagnosticsEmitter();
    const off = diagnostics.on('tool.execution.started', () => undefined);
    expect(diagnostics.hasListeners()).toBe(true);
    off();
    expect(diagnostics.hasListeners()).toBe(false);
  });
});

describe('after-call observers', () => {
  it('returns the result without waiting for observers, which run in parallel with a redacted copy and the duration', async () => {
    const seen: AfterToolCallEvent[] = [];
    let release!: () => void;
    const gate = createToolGate({
      afterCallObservers: [
        { pluginId: 'slow', handler: () => new Promise<void>((r) => { release = r; }) },
        { pluginId: 'audit', handler: (e) => void seen.push(e) },
      ],
    });
    const tool = recordingTool('read', {
      execute: async () => ({ content: [{ type: 'text', text: `token=${SECRET}` }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] }),
    });
    const result = await gate.wrap(tool).execute({ apiKey: 'k' }, ctx());
    await new Promise((r) => setTimeout(r, 0));
    expect(result.content[0]).toEqual({ type: 'text', text: `token=${SECRET}` });
    expect(seen).toHaveLength(1);
    expect(seen[0].durationMs).toBeGreaterThanOrEqual(0);
    expect(seen[0].params).toEqual({ apiKey: '[redacted]' });
    expect(seen[0].result?.content).toEqual([
      { type: 'text', text: 'token=[redacted]' },
      { type: 'text', text: '[image image/png, 4 base64 chars]' },
    ]);
    release();
  });

  it('logs an observer failure and never changes the finished call', async () => {
    const warnings: string[] = [];
    const gate = createToolGate({
      afterCallObservers: [{ pluginId: 'broken', handler: async () => { throw new Error('observer crashed'); } }],
      logger: { warn: (m) => warnings.push(m), error: () => undefined },
    });
    const result = await gate.wrap(recordingTool()).execute({}, ctx());
    await new Promise((r) => setTimeout(r, 0));
    expect(result.content[0]).toEqual({ type: 'text', text: 'ran read' });
    expect(warnings[0]).toMatch(/after_tool_call observer of plugin "broken" failed.*observer crashed/);
  });

  it('shows exec observers a command summary instead of the command', async () => {
    const event = buildAfterCallEvent(
      { toolName: 'exec', toolCallId: 'c', params: { command: 'export TOKEN=abc; deploy', env: { B: '2', A: '1' } }, durationMs: 5 },
      { result: { content: [] } },
    );
    expect(event.params).toMatchObject({ command: { omitted: true, sha256: expect.stringMatching(/^[0-9a-f]{16}$/) }, env: { A: '[omitted exec env value]' } });
    expect(Object.keys((event.params as { env: object }).env)).toEqual(['A', 'B']);
  });

  it('runs observers for failed calls too, with the error class', async () => {
    const seen: AfterToolCallEvent[] = [];
    await notifyObservers([{ pluginId: 'a', handler: (e) => void seen.push(e) }],
      buildAfterCallEvent({ toolName: 'read', toolCallId: 'c', params: {}, durationMs: 1 }, { error: new RangeError('x') }),
      {}, { warn: () => undefined, error: () => undefined });
    expect(seen[0].error).toEqual({ errorClass: 'RangeError', message: 'x' });
  });
});
