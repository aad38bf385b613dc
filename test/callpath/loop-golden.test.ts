/**
 * Loop-detection parity (9.14), in CI. The reference release is not installed here (300 MB), so
 * two checks stand in for scripts/loop-parity.mjs: a seeded golden file of verdicts replayed
 * through the detector, and verdicts derived by hand from the rules of SPEC §4, written out
 * literally. The golden file says whose verdicts it holds (`source`): Pincer's own until
 * someone rewrites it with the release present (`node scripts/loop-parity.mjs --golden FILE`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createDiagnosticsEmitter, type ToolLoopDetectedEvent } from '../../kernel/diagnostics/index.js';
import { createToolGate } from '../../kernel/gate/index.js';
import { createToolLoopDetector, type LoopCheckResult } from '../../kernel/loop/index.js';
import { ctx, recordingTool } from './helpers.js';

type Outcome = { error: string } | { result: unknown };
interface Golden {
  source: 'pincer' | 'release';
  seed: number;
  reached: Record<string, number>;
  params: unknown[];
  outcomes: Outcome[];
  cases: { index: number; steps: [string, number, number][]; stuck: [number, string][] }[];
}

const golden = JSON.parse(readFileSync(new URL('../fixtures/loop/golden-verdicts.json', import.meta.url), 'utf8')) as Golden;

const verdictOf = (v: LoopCheckResult) => (v.stuck ? `${v.level}:${v.detector}:${v.count}${v.livenessSignal ? `:${v.livenessSignal}` : ''}` : 'fine');
const blocked = (message: string) => ({ content: [{ type: 'text', text: message }], details: { status: 'blocked', deniedReason: 'tool-loop', reason: message } });

/** Drives a fresh detector the way the gate (and the parity script) does: check, then veto or run. */
function replay(steps: Golden['cases'][number]['steps']): string[] {
  const detector = createToolLoopDetector({ enabled: true });
  return steps.map(([tool, paramsIndex, outcomeIndex], i) => {
    const params = golden.params[paramsIndex];
    const outcome = golden.outcomes[outcomeIndex];
    const id = `c${i}`;
    const verdict = detector.check(tool, params);
    if (verdict.stuck && verdict.level === 'critical') detector.recordOutcome({ toolName: tool, params, toolCallId: id, result: blocked(verdict.message) });
    else {
      detector.recordCall(tool, params, id);
      detector.recordOutcome({ toolName: tool, params, toolCallId: id, ...('error' in outcome ? { error: new Error(outcome.error) } : { result: outcome.result }) });
    }
    return verdictOf(verdict);
  });
}

describe('the seeded golden file of loop verdicts', () => {
  it('holds every verdict kind, the liveness signal on churn, poll and ping-pong warnings included', () => {
    expect(golden.seed).toBe(20260906);
    expect(Object.keys(golden.reached).sort()).toEqual([
      'critical:generic_repeat', 'critical:global_circuit_breaker', 'critical:known_poll_no_progress', 'critical:ping_pong',
      'critical:unknown_tool_repeat', 'warning:argument_churn+liveness', 'warning:generic_repeat', 'warning:known_poll_no_progress',
      'warning:known_poll_no_progress+liveness', 'warning:ping_pong', 'warning:ping_pong+liveness',
    ]);
    expect(golden.cases.length).toBeGreaterThanOrEqual(300);
  });

  it(`replays every sequence to the same verdict at every step (verdicts from: ${golden.source})`, () => {
    const mismatches: string[] = [];
    let compared = 0;
    for (const { index, steps, stuck } of golden.cases) {
      const expected = steps.map(() => 'fine');
      for (const [step, verdict] of stuck) expected[step] = verdict;
      const actual = replay(steps);
      compared += actual.length;
      const at = actual.findIndex((verdict, i) => verdict !== expected[i]);
      if (at !== -1) mismatches.push(`sequence ${index} step ${at}: expected ${expected[at]}, got ${actual[at]}`);
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(compared).toBe(golden.cases.reduce((sum, c) => sum + c.steps.length, 0));
  });
});

// ---- Verdicts derived by hand from SPEC §4 (default config, enabled). The rules the release
// added on top (vetoes recorded, exec failure identity, argument churn) are avoided here: one
// argument variant per tool, no exec, no vetoes, outcomes that are not failures unless named.
const ok = (text: string) => ({ content: [{ type: 'text', text }] });

function feed(detector: ReturnType<typeof createToolLoopDetector>, calls: { tool: string; params: unknown; result?: unknown; error?: Error }[]) {
  calls.forEach(({ tool, params, result, error }, i) => {
    detector.recordCall(tool, params, `h${i}`);
    detector.recordOutcome({ toolName: tool, params, toolCallId: `h${i}`, ...(error ? { error } : { result }) });
  });
  return detector;
}
const times = (n: number, make: (i: number) => { tool: string; params: unknown; result?: unknown; error?: Error }) => Array.from({ length: n }, (_, i) => make(i));
const readA = (result: unknown = ok('same')) => ({ tool: 'read', params: { path: 'a' }, result });
const poll = { action: 'poll', sessionId: 's1' };
const pollResult = (aggregated = '') => ({ content: [{ type: 'text', text: 'poll' }], details: { status: 'running', aggregated } });
/** A,B,A,…,A (n records, A first and last when n is odd); `aResult(i)` lets A's outcome vary. */
const alternate = (n: number, aResult: (i: number) => unknown = () => ok('a')) =>
  times(n, (i) => (i % 2 === 0 ? { tool: 'read', params: { path: 'a' }, result: aResult(i) } : { tool: 'ls', params: { path: 'b' }, result: ok('b') }));

describe('verdicts derived by hand from SPEC §4', () => {
  const detector = (calls: Parameters<typeof feed>[1]) => feed(createToolLoopDetector({ enabled: true }), calls);
  const verdict = (calls: Parameters<typeof feed>[1], tool: string, params: unknown) => detector(calls).check(tool, params);

  type Expected = { stuck: false } | { level: 'warning' | 'critical'; detector: string; count: number; [key: string]: unknown };
  it.each<[string, () => LoopCheckResult, Expected]>([
    // §4.4.5 generic_repeat: warning when the window holds ≥ warningThreshold (10) same tool+args.
    ['9 identical reads: below the warning threshold', () => verdict(times(9, () => readA()), 'read', { path: 'a' }), { stuck: false }],
    ['10 identical reads: generic warning at 10', () => verdict(times(10, () => readA()), 'read', { path: 'a' }), { level: 'warning', detector: 'generic_repeat', count: 10 }],
    ['19 identical outcomes: still a warning, critical needs 20', () => verdict(times(19, () => readA()), 'read', { path: 'a' }), { level: 'warning', detector: 'generic_repeat', count: 19 }],
    ['20 identical outcomes: generic critical at 20', () => verdict(times(20, () => readA()), 'read', { path: 'a' }), { level: 'critical', detector: 'generic_repeat', count: 20 }],
    // noProgress counts only while the outcome equals the newest one: alternating outcomes keep it at 1.
    ['20 repeats whose outcome alternates: a warning counting the window, never critical', () => verdict(times(20, (i) => readA(ok(i % 2 ? 'x' : 'y'))), 'read', { path: 'a' }), { level: 'warning', detector: 'generic_repeat', count: 20 }],
    // §4.4.2 global_circuit_breaker at 30, before the per-tool detectors; §4.3 the window is 30.
    ['30 identical outcomes: the global circuit breaker', () => verdict(times(30, () => readA()), 'read', { path: 'a' }), { level: 'critical', detector: 'global_circuit_breaker', count: 30 }],
    ['40 identical outcomes: the window keeps 30, so the count is 30', () => verdict(times(40, () => readA()), 'read', { path: 'a' }), { level: 'critical', detector: 'global_circuit_breaker', count: 30 }],
    // §4.4.3 known_poll_no_progress (process poll is a known poll tool), warning 10, critical 20.
    ['10 identical polls: poll warning', () => verdict(times(10, () => ({ tool: 'process', params: poll, result: pollResult() })), 'process', poll), { level: 'warning', detector: 'known_poll_no_progress', count: 10 }],
    ['20 identical polls: poll critical', () => verdict(times(20, () => ({ tool: 'process', params: poll, result: pollResult() })), 'process', poll), { level: 'critical', detector: 'known_poll_no_progress', count: 20 }],
    // generic_repeat is for non-poll tools only: 25 polls with fresh output each time are fine.
    ['25 polls with changing output: fine (no generic repeat for poll tools)', () => verdict(times(25, (i) => ({ tool: 'process', params: poll, result: pollResult(`line ${i}`) })), 'process', poll), { stuck: false }],
    // §4.4.1 unknown_tool_repeat at 10 consecutive records naming one missing tool; first in order.
    ['9 unknown-tool errors: fine', () => verdict(times(9, () => ({ tool: 'dispatch', params: {}, error: new Error('unknown tool "frob"') })), 'dispatch', {}), { stuck: false }],
    ['10 unknown-tool errors: unknown_tool_repeat', () => verdict(times(10, () => ({ tool: 'dispatch', params: {}, error: new Error('unknown tool "frob"') })), 'dispatch', {}), { level: 'critical', detector: 'unknown_tool_repeat', count: 10, warningKey: 'unknown-tool:dispatch:frob' }],
    ['30 unknown-tool errors: unknown_tool_repeat wins over the circuit breaker', () => verdict(times(30, () => ({ tool: 'dispatch', params: {}, error: new Error('unknown tool "frob"') })), 'dispatch', {}), { level: 'critical', detector: 'unknown_tool_repeat', count: 30 }],
    // §4.4.4 ping_pong: tail A,B,…,A of 9 and the call is B → count 10, a warning (no evidence needed).
    ['A,B alternating 9 times, then B: ping-pong warning at 10', () => verdict(alternate(9), 'ls', { path: 'b' }), { level: 'warning', detector: 'ping_pong', count: 10, pairedToolName: 'read' }],
    // tail of 19 + 1 = 20 with each side's outcome constant: critical.
    ['A,B alternating 19 times with constant outcomes, then B: ping-pong critical at 20', () => verdict(alternate(19), 'ls', { path: 'b' }), { level: 'critical', detector: 'ping_pong', count: 20 }],
    // the same count without no-progress evidence (A's outcome changes) stays a warning.
    ['the same with A\'s outcome changing: a ping-pong warning at 20', () => verdict(alternate(19, (i) => ok(`a${i}`)), 'ls', { path: 'b' }), { level: 'warning', detector: 'ping_pong', count: 20 }],
    // the current call must be B: a third call is no ping-pong.
    ['after the alternation, a third call: fine', () => verdict(alternate(19), 'read', { path: 'c' }), { stuck: false }],
  ])('%s', (_name, run, expected) => {
    const result = run();
    if ('stuck' in expected) expect(result).toEqual({ stuck: false });
    else {
      expect(result).toMatchObject({ stuck: true, ...expected });
      expect((result as { message: string }).message).toMatch(expected.level === 'critical' ? /^CRITICAL: / : /^WARNING: /);
      expect(result).not.toHaveProperty('livenessSignal');
    }
  });

  it('keys a ping-pong warning by the two sorted signatures (§4.4.4)', () => {
    const result = verdict(alternate(9), 'ls', { path: 'b' });
    const history = detector(alternate(2)).history();
    const pair = [history[0].argsHash, history[1].argsHash].sort().join('|');
    expect(result).toMatchObject({ warningKey: `pingpong:${pair}` });
  });

  it('hashes update_plan by shape (§4.2): reworded steps are the same call, so ten are a generic warning', () => {
    const plans = times(10, (i) => ({ tool: 'update_plan', params: { plan: [{ step: `wording ${i}`, status: 'pending' }] }, result: ok('plan updated') }));
    expect(verdict(plans, 'update_plan', { plan: [{ step: 'yet other words', status: 'pending' }] })).toMatchObject({ level: 'warning', detector: 'generic_repeat', count: 10 });
  });

  it('strips volatile send ids from message results (§4.2): twenty sends differing only in messageId and ts are no progress', () => {
    const params = { action: 'send', target: 'ops', message: 'deploy done' };
    const sends = times(20, (i) => ({ tool: 'message', params, result: { content: [{ type: 'text', text: 'sent' }], details: { ok: true, messageId: `m${i}`, ts: 1_000 + i } } }));
    expect(verdict(sends, 'message', params)).toMatchObject({ level: 'critical', detector: 'generic_repeat', count: 20 });
  });
});

describe('the tool.loop.detected diagnostics event', () => {
  it('carries the liveness signal of an argument-churn warning, and the call still runs', async () => {
    const diagnostics = createDiagnosticsEmitter();
    const events: ToolLoopDetectedEvent[] = [];
    diagnostics.on('tool.loop.detected', (event) => events.push(event));
    const calls: Record<string, unknown>[] = [];
    const tool = recordingTool('read', {
      execute: async (params) => {
        calls.push(params);
        throw new Error('ENOENT: no such file');
      },
    });
    const gate = createToolGate({ loopDetection: { enabled: true }, diagnostics, runContext: { runId: 'r1', sessionKey: 's1', agentId: 'main' } });
    const wrapped = gate.wrap(tool);
    // Three paths failing the same way, ten calls: churn below the warning threshold (10) until the last has run.
    for (let i = 0; i < 10; i += 1) await wrapped.execute({ path: `missing-${i % 3}` }, ctx(`c${i}`)).catch(() => undefined);
    expect(events).toEqual([]);
    await wrapped.execute({ path: 'missing-1' }, ctx('c10')).catch(() => undefined);
    expect(events).toEqual([{
      type: 'tool.loop.detected', ts: expect.any(Number), runId: 'r1', sessionKey: 's1', agentId: 'main', toolCallId: 'c10', toolName: 'read',
      pluginId: undefined, level: 'warning', detector: 'argument_churn', count: 10, livenessSignal: 'argument_churn',
    }]);
    expect(calls).toHaveLength(11);
  });

  it('leaves the liveness signal out of a verdict that has none (a generic repeat)', async () => {
    const diagnostics = createDiagnosticsEmitter();
    const events: ToolLoopDetectedEvent[] = [];
    diagnostics.on('tool.loop.detected', (event) => events.push(event));
    const wrapped = createToolGate({ loopDetection: { enabled: true }, diagnostics }).wrap(recordingTool());
    for (let i = 0; i < 11; i += 1) await wrapped.execute({ path: 'a' }, ctx(`c${i}`));
    expect(events.map(({ level, detector, count }) => ({ level, detector, count }))).toEqual([{ level: 'warning', detector: 'generic_repeat', count: 10 }]);
    expect(events[0]).not.toHaveProperty('livenessSignal');
  });
});
