import { describe, expect, it } from 'vitest';
import {
  createToolLoopDetector, hashToolCall, hashToolOutcome, resolveLoopDetectionConfig, stableStringify,
} from '../../kernel/loop/index.js';
import { createToolGate } from '../../kernel/gate/index.js';
import { ctx, recordingTool } from './helpers.js';

const same = { content: [{ type: 'text', text: 'same' }] };

function repeat(detector: ReturnType<typeof createToolLoopDetector>, times: number, tool: string, params: unknown, result: unknown = same) {
  for (let i = 0; i < times; i += 1) {
    detector.recordCall(tool, params, `c${i}`);
    detector.recordOutcome({ toolName: tool, params, toolCallId: `c${i}`, result });
  }
}

describe('loop detection config', () => {
  it('is off by default with the reference thresholds', () => {
    expect(resolveLoopDetectionConfig(undefined)).toMatchObject({
      enabled: false, historySize: 30, warningThreshold: 10, unknownToolThreshold: 10, criticalThreshold: 20,
      globalCircuitBreakerThreshold: 30,
    });
  });

  it('falls back to defaults for non-positive or non-integer values', () => {
    const c = resolveLoopDetectionConfig({ historySize: -1, warningThreshold: 2.5, criticalThreshold: 0 });
    expect([c.historySize, c.warningThreshold, c.criticalThreshold]).toEqual([30, 10, 20]);
  });

  it('forces critical above warning and global above critical', () => {
    const c = resolveLoopDetectionConfig({ warningThreshold: 25, criticalThreshold: 5, globalCircuitBreakerThreshold: 3 });
    expect([c.warningThreshold, c.criticalThreshold, c.globalCircuitBreakerThreshold]).toEqual([25, 26, 27]);
  });

  it('never reports anything while disabled', () => {
    const d = createToolLoopDetector({ enabled: false });
    repeat(d, 40, 'read', { path: 'a' });
    expect(d.check('read', { path: 'a' })).toEqual({ stuck: false });
  });
});

describe('hashing', () => {
  it('hashes params independently of key order', () => {
    expect(hashToolCall('read', { a: 1, b: { c: 2, d: 3 } })).toBe(hashToolCall('read', { b: { d: 3, c: 2 }, a: 1 }));
    expect(stableStringify({ b: 1, a: [2, { d: 1, c: 0 }] })).toBe('{"a":[2,{"c":0,"d":1}],"b":1}');
  });

  it('stringifies cycles, bigints and non-finite numbers without throwing', () => {
    const cyclic: Record<string, unknown> = { n: 1n, inf: Infinity };
    cyclic.self = cyclic;
    expect(stableStringify(cyclic)).toBe('{"inf":"Infinity","n":"1","self":"[Circular]"}');
  });

  it('ignores update_plan wording so only shape changes count as progress', () => {
    const a = { plan: [{ step: 'Read files', status: 'pending' }], explanation: 'x' };
    const b = { plan: [{ step: 'Look at the files', status: 'pending' }], explanation: 'y' };
    expect(hashToolCall('update_plan', a)).toBe(hashToolCall('update_plan', b));
    expect(hashToolCall('update_plan', a)).not.toBe(hashToolCall('update_plan', { ...a, plan: [{ step: 'x', status: 'done' }] }));
  });

  it('strips volatile ids and timestamps from send results', () => {
    const params = { action: 'send', text: 'hi' };
    const r1 = { content: [], details: { ok: true, messageId: 'm1', ts: 1 } };
    const r2 = { content: [], details: { ok: true, messageId: 'm2', ts: 2 } };
    expect(hashToolOutcome('message', params, r1, undefined)).toEqual(hashToolOutcome('message', params, r2, undefined));
  });

  it('records a loop veto without a hash; it counts toward its call\'s streak, so a critical block stays and keeps counting', () => {
    const veto = { content: [], details: { status: 'blocked', deniedReason: 'tool-loop' } };
    expect(hashToolOutcome('read', {}, veto, undefined)).toEqual({ outcomeKind: 'tool-loop-veto' });
    const d = createToolLoopDetector({ enabled: true });
    repeat(d, 20, 'read', { path: 'a' });
    expect(d.check('read', { path: 'a' })).toMatchObject({ level: 'critical', count: 20 });
    d.recordOutcome({ toolName: 'read', params: { path: 'a' }, toolCallId: 'v1', result: veto });
    expect(d.check('read', { path: 'a' })).toMatchObject({ level: 'critical', detector: 'generic_repeat', count: 21 });
  });

  it('ends an unknown-tool streak at a veto, as the release does: the block is not sticky, the next call may run', () => {
    const d = createToolLoopDetector({ enabled: true });
    for (let i = 0; i < 10; i += 1) {
      d.recordCall('dispatch', { to: 'frob' }, `u${i}`);
      d.recordOutcome({ toolName: 'dispatch', params: { to: 'frob' }, toolCallId: `u${i}`, error: new Error('unknown tool "frob"') });
    }
    expect(d.check('dispatch', { to: 'frob' })).toMatchObject({ level: 'critical', detector: 'unknown_tool_repeat' });
    d.recordOutcome({ toolName: 'dispatch', params: { to: 'frob' }, toolCallId: 'v', result: { content: [], details: { status: 'blocked', deniedReason: 'tool-loop' } } });
    expect(d.check('dispatch', { to: 'frob' })).not.toMatchObject({ detector: 'unknown_tool_repeat' });
  });

  it('counts an exec that keeps failing the same way as no progress even when the command changes (volatile output masked)', () => {
    const d = createToolLoopDetector({ enabled: true });
    for (let i = 0; i < 20; i += 1) {
      const params = { command: `make target-${i}` };
      const result = { content: [{ type: 'text', text: 'x' }], details: { status: 'failed', exitCode: 2, aggregated: `error: missing header (attempt ${i}, after ${i * 10}ms)` } };
      d.recordCall('exec', params, `e${i}`);
      d.recordOutcome({ toolName: 'exec', params, toolCallId: `e${i}`, result });
    }
    expect(d.check('exec', { command: 'make target-20' })).toMatchObject({ level: 'critical', detector: 'generic_repeat', count: 20 });
    // A different failure is progress of a kind: the run starts over.
    const other = createToolLoopDetector({ enabled: true });
    for (let i = 0; i < 20; i += 1) {
      const params = { command: `make target-${i}` };
      other.recordCall('exec', params, `e${i}`);
      other.recordOutcome({ toolName: 'exec', params, toolCallId: `e${i}`, result: { content: [], details: { status: 'failed', exitCode: 2, aggregated: `error in file ${i}.c` } } });
    }
    expect(other.check('exec', { command: 'make target-20' })).toEqual({ stuck: false });
  });

  it('extracts the missing tool name from unknown-tool errors', () => {
    expect(hashToolOutcome('x', {}, undefined, new Error('Unknown tool: "Web_Search"')).unknownToolName).toBe('web_search');
    expect(hashToolOutcome('x', {}, undefined, new Error('tool foo is not available')).unknownToolName).toBe('foo');
  });
});

describe('the detectors', () => {
  const on = { enabled: true };

  it('warns on generic repeats at the warning threshold and blocks identical outcomes at the critical one', () => {
    const d = createToolLoopDetector(on);
    repeat(d, 10, 'read', { path: 'a' });
    expect(d.check('read', { path: 'a' })).toMatchObject({ stuck: true, level: 'warning', detector: 'generic_repeat', count: 10 });
    repeat(d, 10, 'read', { path: 'a' });
    const verdict = d.check('read', { path: 'a' });
    expect(verdict).toMatchObject({ level: 'critical', detector: 'generic_repeat', count: 20 });
    expect(verdict.stuck && verdict.message).toMatch(/^CRITICAL: read/);
  });

  it('does not count a repeat as no-progress when the outcome changes', () => {
    const d = createToolLoopDetector(on);
    for (let i = 0; i < 25; i += 1) {
      d.recordCall('read', { p: 1 }, `c${i}`);
      d.recordOutcome({ toolName: 'read', params: { p: 1 }, toolCallId: `c${i}`, result: { content: [{ type: 'text', text: String(i) }] } });
    }
    expect(d.check('read', { p: 1 })).toMatchObject({ level: 'warning', detector: 'generic_repeat' });
  });

  it('warns and then blocks a known polling tool with no progress', () => {
    const d = createToolLoopDetector(on);
    const poll = { action: 'poll', sessionId: 's' };
    repeat(d, 10, 'process', poll);
    expect(d.check('process', poll)).toMatchObject({ level: 'warning', detector: 'known_poll_no_progress' });
    repeat(d, 10, 'process', poll);
    expect(d.check('process', poll)).toMatchObject({ level: 'critical', detector: 'known_poll_no_progress' });
  });

  it('blocks unknown-tool repeats at the unknown-tool threshold', () => {
    const d = createToolLoopDetector(on);
    for (let i = 0; i < 10; i += 1) {
      d.recordCall('browser', { i }, `c${i}`);
      d.recordOutcome({ toolName: 'browser', params: { i }, toolCallId: `c${i}`, error: new Error('Unknown tool "browser"') });
    }
    expect(d.check('browser', { i: 99 })).toMatchObject({ level: 'critical', detector: 'unknown_tool_repeat', count: 10 });
  });

  it('trips the global circuit breaker before the per-tool detectors', () => {
    const d = createToolLoopDetector({ enabled: true, historySize: 50 });
    repeat(d, 30, 'process', { action: 'poll' });
    expect(d.check('process', { action: 'poll' })).toMatchObject({ level: 'critical', detector: 'global_circuit_breaker', count: 30 });
  });

  it('detects ping-pong: warns without evidence, blocks with identical outcomes on both sides', () => {
    const d = createToolLoopDetector(on);
    for (let i = 0; i < 19; i += 1) {
      const [tool, params] = i % 2 === 0 ? ['read', { p: 'a' }] : ['list', { p: 'b' }];
      d.recordCall(tool, params, `c${i}`);
      d.recordOutcome({ toolName: tool, params, toolCallId: `c${i}`, result: same });
    }
    // Last was read(a); the next list(b) continues the alternation: 19 + 1 = 20.
    const verdict = d.check('list', { p: 'b' });
    expect(verdict).toMatchObject({ level: 'critical', detector: 'ping_pong', count: 20 });
    expect(verdict.stuck && verdict.warningKey).toMatch(/^pingpong:/);
  });

  it('keeps history to the configured window', () => {
    const d = createToolLoopDetector({ enabled: true, historySize: 5 });
    repeat(d, 12, 'read', {});
    expect(d.history()).toHaveLength(5);
  });
});

describe('loop detection in the gate', () => {
  it('vetoes a critical loop with deniedReason tool-loop and a message telling the model to stop', async () => {
    const tool = recordingTool();
    const gate = createToolGate({ loopDetection: { enabled: true, warningThreshold: 2, criticalThreshold: 3, globalCircuitBreakerThreshold: 10 } });
    const wrapped = gate.wrap(tool);
    for (let i = 0; i < 3; i += 1) await wrapped.execute({ path: 'a' }, ctx(`c${i}`));
    const result = await wrapped.execute({ path: 'a' }, ctx('c3'));
    expect(result.details).toMatchObject({ status: 'blocked', deniedReason: 'tool-loop' });
    expect(result.content[0]).toMatchObject({ text: expect.stringMatching(/^CRITICAL:.*blocked/) });
    expect(tool.calls).toHaveLength(3);
    // The veto leaves no trace, so the block is sticky.
    expect((await wrapped.execute({ path: 'a' }, ctx('c4'))).details?.deniedReason).toBe('tool-loop');
  });

  it('logs a loop warning once per warning key', async () => {
    const warnings: string[] = [];
    const gate = createToolGate({
      loopDetection: { enabled: true, warningThreshold: 2, criticalThreshold: 50, globalCircuitBreakerThreshold: 60 },
      logger: { warn: (m) => warnings.push(m), error: () => undefined },
    });
    const wrapped = gate.wrap(recordingTool());
    for (let i = 0; i < 6; i += 1) await wrapped.execute({ path: 'a' }, ctx(`c${i}`));
    expect(warnings.filter((w) => w.includes('generic_repeat'))).toHaveLength(1);
  });

  it('accepts a detector the host drives itself', async () => {
    const detector = createToolLoopDetector({ enabled: true });
    const gate = createToolGate({ loopDetection: detector });
    await gate.wrap(recordingTool()).execute({ x: 1 }, ctx('k'));
    expect(detector.history()).toMatchObject([{ toolName: 'read', toolCallId: 'k', resultHash: expect.any(String) }]);
  });
});

describe('argument churn (9.14, the release 2026.9.6 detector)', () => {
  function fail(detector: ReturnType<typeof createToolLoopDetector>, tool: string, params: unknown, i: number, message = 'ENOENT: no such file') {
    detector.recordCall(tool, params, `c${i}`);
    detector.recordOutcome({ toolName: tool, params, toolCallId: `c${i}`, error: new Error(message) });
  }

  it('warns, with the liveness signal, when changing arguments keeps failing the same way; the call still runs', () => {
    const d = createToolLoopDetector({ enabled: true });
    // Three variants, each tried until stable (3+ times), all failing with one error: 12 calls.
    for (let i = 0; i < 12; i += 1) fail(d, 'read', { path: `missing-${i % 3}` }, i);
    const verdict = d.check('read', { path: 'missing-0' });
    expect(verdict).toMatchObject({ stuck: true, level: 'warning', detector: 'argument_churn', count: 12, warningKey: 'argument-churn:read', livenessSignal: 'argument_churn' });
  });

  it('does not fire for a variant the run has not repeated, nor when outcomes differ, nor after progress', () => {
    const d = createToolLoopDetector({ enabled: true });
    for (let i = 0; i < 12; i += 1) fail(d, 'read', { path: `missing-${i % 3}` }, i);
    expect(d.check('read', { path: 'new-one' })).toEqual({ stuck: false });

    const differing = createToolLoopDetector({ enabled: true });
    for (let i = 0; i < 12; i += 1) fail(differing, 'read', { path: `p${i % 3}` }, i, `error ${i % 3}`);
    expect(differing.check('read', { path: 'p0' })).toEqual({ stuck: false });

    const progressed = createToolLoopDetector({ enabled: true });
    for (let i = 0; i < 12; i += 1) fail(progressed, 'read', { path: `missing-${i % 3}` }, i);
    repeat(progressed, 1, 'read', { path: 'found' });
    expect(progressed.check('read', { path: 'missing-0' })).toEqual({ stuck: false });
  });

  it('counts a write that changed nothing as no progress, whatever was written', () => {
    const d = createToolLoopDetector({ enabled: true });
    const unchanged = { content: [{ type: 'text', text: 'no change' }], details: { changed: false } };
    for (let i = 0; i < 12; i += 1) {
      const params = { path: 'a.txt', content: `v${i % 3}` };
      d.recordCall('write', params, `w${i}`);
      d.recordOutcome({ toolName: 'write', params, toolCallId: `w${i}`, result: unchanged });
    }
    expect(d.check('write', { path: 'a.txt', content: 'v0' })).toMatchObject({ detector: 'argument_churn', count: 12, level: 'warning' });
  });

  it('puts the liveness signal on a ping-pong warning while the run churns (two variants alternating)', () => {
    const d = createToolLoopDetector({ enabled: true });
    for (let i = 0; i < 10; i += 1) fail(d, 'read', { path: `missing-${i % 2}` }, i);
    expect(d.check('read', { path: 'missing-0' })).toMatchObject({ detector: 'ping_pong', level: 'warning', livenessSignal: 'argument_churn' });
  });

  it('yields to a critical verdict: generic repeat still blocks', () => {
    const d = createToolLoopDetector({ enabled: true });
    for (let i = 0; i < 20; i += 1) fail(d, 'read', { path: 'same' }, i);
    expect(d.check('read', { path: 'same' })).toMatchObject({ level: 'critical', detector: 'generic_repeat' });
  });
});
