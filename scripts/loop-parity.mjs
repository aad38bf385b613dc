#!/usr/bin/env node
/**
 * Differential check of the loop detector against the reference release (9.14).
 *
 * Not part of the test suite (the reference package is 300 MB): after
 *   npm pack openclaw@2026.9.6 && tar xzf openclaw-2026.9.6.tgz
 * run
 *   npx tsc -p tsconfig.json && PINCER_REFERENCE_DIST=/path/to/package/dist node scripts/loop-parity.mjs [sequences]
 *
 * It drives both detectors through the same random call sequences, the way each gate does
 * (check → critical: record the veto; else record the call and its outcome), and compares
 * every verdict: stuck or not, level, detector, count, and the liveness signal. It prints the
 * agreement and a table of the disagreements by kind, with one example each.
 *
 * With `--golden FILE [sequences]` it instead writes the seeded sequences and their verdicts to
 * FILE, the golden file test/callpath/loop-golden.test.ts replays in CI (default 300 sequences,
 * written to test/fixtures/loop/golden-verdicts.json). The verdicts are the release's when
 * PINCER_REFERENCE_DIST is set (`"source": "release"`); without the release they are Pincer's
 * own (`"source": "pincer"`), a regression lock rather than a parity proof, and the file says so.
 *
 * The release's loop chunk imports a logger, a channel registry and file helpers that need
 * the release's own dependencies; a loader hook replaces those with stubs (a silent logger,
 * no channel send actions, empty modules), which the verdicts do not read.
 */
import fc from 'fast-check';
import { readdirSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createToolLoopDetector } from '../dist/kernel/loop/index.js';

const dist = process.env.PINCER_REFERENCE_DIST;
const goldenAt = process.argv.indexOf('--golden');
const goldenFile = goldenAt === -1 ? undefined : process.argv[goldenAt + 1];
const positional = process.argv.slice(2).filter((arg, i, all) => arg !== '--golden' && all[i - 1] !== '--golden');
if (goldenAt !== -1 && !goldenFile) {
  console.error('usage: node scripts/loop-parity.mjs --golden FILE [sequences]');
  process.exit(2);
}
if (!dist && !goldenFile) {
  console.error('set PINCER_REFERENCE_DIST to the reference release dist/ folder');
  process.exit(2);
}
const STUBS = {
  'subsystem-': 'const log = { error() {}, warn() {}, info() {}, debug() {}, trace() {} }; export const t = () => log;',
  'embedded-agent-messaging-': 'export const a = () => false;',
  'src-': 'export {};',
  'utils-': 'export {};',
  'crypto-digest-': 'export {};',
};
const hook = `
const STUBS = ${JSON.stringify(STUBS)};
export async function resolve(specifier, context, next) {
  for (const [prefix, source] of Object.entries(STUBS)) {
    if (specifier.startsWith('./' + prefix)) return { url: 'data:text/javascript,' + encodeURIComponent(source), shortCircuit: true };
  }
  return next(specifier, context);
}`;
let chunk;
let ref;
if (dist) {
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
  chunk = readdirSync(dist).find((f) => /^tool-loop-detection-[\w-]+\.mjs$/.test(f));
  ref = await import(pathToFileURL(join(dist, chunk)).href);
}
const detect = ref?.t;
const recordCall = ref?.r;
const recordOutcome = ref?.i;

// A small world, so that calls repeat, alternate and churn often.
const TOOLS = ['read', 'write', 'exec', 'process', 'command_status', 'ls'];
const paramsFor = {
  read: fc.constantFrom({ path: 'a' }, { path: 'b' }, { path: 'c' }),
  write: fc.constantFrom({ path: 'a', content: 'x' }, { path: 'a', content: 'y' }, { path: 'b', content: 'x' }),
  // Many commands: an exec that keeps failing the same way with changing commands is a release rule.
  exec: fc.integer({ min: 0, max: 11 }).map((n) => ({ command: `make target-${n}` })),
  process: fc.constantFrom({ action: 'poll', sessionId: 's1' }, { action: 'log', sessionId: 's1' }, { action: 'kill', sessionId: 's1' }),
  command_status: fc.constantFrom({ id: 1 }, { id: 2 }),
  ls: fc.constantFrom({}, { path: 'src' }),
};
const text = (t) => ({ content: [{ type: 'text', text: t }] });
const outcomeArb = (tool) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(text('same'), text('other')).map((result) => ({ result })) },
    { weight: 3, arbitrary: fc.constantFrom('ENOENT: no such file', 'permission denied', 'unknown tool "frob"', 'tool "zap" not found').map((m) => ({ error: new Error(m) })) },
    ...(tool === 'write' ? [{ weight: 3, arbitrary: fc.constant({ result: { ...text('unchanged'), details: { changed: false } } }) }] : []),
    ...(tool === 'exec'
      ? [{
          weight: 3,
          // Failure output with volatile parts (clock times, attempts, durations, pids) that the release masks.
          arbitrary: fc.record({
            status: fc.constantFrom('completed', 'failed', 'running'), exitCode: fc.constantFrom(0, 1, 2), timedOut: fc.boolean(),
            aggregated: fc.constantFrom('', 'error: x', 'ok', '(Command exited with code 1)'),
            noise: fc.constantFrom('', ' at 12:00:01', ' attempt 3', ' after 250ms', ' pid 4242', ' 2026-01-02T03:04:05Z'),
            tail: fc.constantFrom('', '...'),
          }).map(({ noise, ...details }) => ({ result: { ...text(details.aggregated || 'done'), details: { ...details, aggregated: details.aggregated && details.aggregated + noise } } })),
        }]
      : []),
    ...(tool === 'process' || tool === 'command_status'
      ? [{ weight: 3, arbitrary: fc.record({ status: fc.constantFrom('running', 'completed'), aggregated: fc.constantFrom('', 'line') }).map((details) => ({ result: { ...text('poll'), details } })) }]
      : []),
  );
const stepArb = fc.constantFrom(...TOOLS).chain((tool) => fc.record({ tool: fc.constant(tool), params: paramsFor[tool], outcome: outcomeArb(tool) }));
// Runs of one tool make churn and repeats reachable within the 30-call window.
const mixedArb = fc.array(fc.tuple(stepArb, fc.integer({ min: 1, max: 8 })), { minLength: 1, maxLength: 12 })
  .map((runs) => runs.flatMap(([step, times]) => Array.from({ length: times }, () => step)).slice(0, 80));
// Long runs of one tool with changing arguments and one outcome: churn, and exec failing the same way across commands.
const churnArb = fc.constantFrom('exec', 'read', 'write').chain((tool) =>
  fc.tuple(outcomeArb(tool), fc.array(paramsFor[tool], { minLength: 10, maxLength: 60 }), fc.array(outcomeArb(tool), { maxLength: 3 }))
    .map(([outcome, params, noise]) => [...params.map((p) => ({ tool, params: p, outcome })), ...noise.map((o, i) => ({ tool, params: params[i % params.length], outcome: o }))]));
// The same call and outcome again and again: generic repeat, polling and the circuit breaker.
const repeatArb = fc.tuple(stepArb, fc.integer({ min: 15, max: 45 })).map(([step, times]) => Array.from({ length: times }, () => step));
// Two calls alternating: ping-pong.
const pingPongArb = fc.tuple(stepArb, stepArb, fc.integer({ min: 8, max: 40 })).map(([a, b, times]) => Array.from({ length: times }, (_, i) => (i % 2 ? b : a)));
const sequenceArb = fc.oneof(mixedArb, churnArb, repeatArb, pingPongArb);

const verdictOf = (v) => (v.stuck ? `${v.level}:${v.detector}:${v.count}${v.livenessSignal ? `:${v.livenessSignal}` : ''}` : 'fine');
const blocked = (message) => ({ content: [{ type: 'text', text: message }], details: { status: 'blocked', deniedReason: 'tool-loop', reason: message } });

function runOurs(steps) {
  const detector = createToolLoopDetector({ enabled: true });
  return steps.map(({ tool, params, outcome }, i) => {
    const id = `c${i}`;
    const verdict = detector.check(tool, params);
    if (verdict.stuck && verdict.level === 'critical') detector.recordOutcome({ toolName: tool, params, toolCallId: id, result: blocked(verdict.message) });
    else {
      detector.recordCall(tool, params, id);
      detector.recordOutcome({ toolName: tool, params, toolCallId: id, ...outcome });
    }
    return verdictOf(verdict);
  });
}

function runReference(steps) {
  const state = {};
  const config = { enabled: true };
  const scope = { runId: 'run-1' };
  return steps.map(({ tool, params, outcome }, i) => {
    const id = `c${i}`;
    const verdict = detect(state, tool, params, config, scope);
    if (verdict.stuck && verdict.level === 'critical') {
      recordOutcome(state, { toolName: tool, toolParams: params, toolCallId: id, result: blocked(verdict.message), runId: scope.runId });
    } else {
      recordCall(state, tool, params, id, config, scope);
      recordOutcome(state, { toolName: tool, toolParams: params, toolCallId: id, ...outcome, runId: scope.runId });
    }
    return verdictOf(verdict);
  });
}

const SEED = 20260906;

// Every verdict kind the golden file must hold; the rare ones (a poll or ping-pong warning with
// the liveness signal) are found further on in the same seeded stream.
const GOLDEN_KINDS = [
  'critical:generic_repeat', 'critical:global_circuit_breaker', 'critical:known_poll_no_progress', 'critical:ping_pong',
  'critical:unknown_tool_repeat', 'warning:argument_churn+liveness', 'warning:generic_repeat', 'warning:known_poll_no_progress',
  'warning:known_poll_no_progress+liveness', 'warning:ping_pong', 'warning:ping_pong+liveness',
];
const goldenKind = (verdict) => verdict.split(':').slice(0, 2).join(':') + (verdict.split(':')[3] ? '+liveness' : '');

/**
 * Writes the first `count` seeded sequences and one side's verdicts (the release's when
 * present), plus, from further on in the same stream, the first sequence reaching each kind
 * the first `count` miss.
 */
function writeGolden(file, count) {
  const source = dist ? 'release' : 'pincer';
  const run = dist ? runReference : runOurs;
  const params = new Map();
  const outcomes = new Map();
  const indexOf = (table, value) => {
    const key = JSON.stringify(value);
    if (!table.has(key)) table.set(key, table.size);
    return table.get(key);
  };
  const reached = {};
  const cases = [];
  const stream = fc.sample(sequenceArb, { numRuns: 50_000, seed: SEED });
  for (let index = 0; index < stream.length; index += 1) {
    const missing = GOLDEN_KINDS.filter((kind) => !reached[kind]);
    if (index >= count && missing.length === 0) break;
    const sequence = stream[index];
    const verdicts = run(sequence);
    const kinds = verdicts.filter((v) => v !== 'fine').map(goldenKind);
    if (index >= count && !kinds.some((kind) => missing.includes(kind))) continue;
    for (const kind of kinds) reached[kind] = (reached[kind] ?? 0) + 1;
    const stuck = verdicts.flatMap((verdict, i) => (verdict === 'fine' ? [] : [[i, verdict]]));
    const steps = sequence.map(({ tool, params: p, outcome }) => [tool, indexOf(params, p), indexOf(outcomes, outcome.error ? { error: outcome.error.message } : outcome)]);
    cases.push({ index, steps, stuck });
  }
  const golden = {
    about: source === 'release'
      ? `Verdicts of the reference release's loop detector (${chunk}) over seeded random call sequences, default config with enabled: true. Written by scripts/loop-parity.mjs --golden; replayed by test/callpath/loop-golden.test.ts.`
      : 'Verdicts of Pincer\'s own loop detector (not the release\'s: it was not on the machine that wrote this file) over seeded random call sequences, default config with enabled: true: a regression lock, not a parity proof. Written by scripts/loop-parity.mjs --golden; rerun it with PINCER_REFERENCE_DIST set to replace them with the release\'s; replayed by test/callpath/loop-golden.test.ts.',
    source,
    seed: SEED,
    firstSequences: count,
    config: { enabled: true },
    format: 'cases[].index is the sequence\'s place in the seeded stream; steps are [tool, params index, outcome index]; stuck lists [step, "level:detector:count[:livenessSignal]"], every other step is {stuck:false}. Driven as a gate drives it: check; a critical verdict records a loop veto, anything else records the call and its outcome ({error} is thrown as an Error with that message).',
    reached: Object.fromEntries(Object.entries(reached).sort()),
    params: [...params.keys()].map((key) => JSON.parse(key)),
    outcomes: [...outcomes.keys()].map((key) => JSON.parse(key)),
  };
  // One case a line, so a change of verdicts shows as a readable diff.
  const head = JSON.stringify(golden, null, 1).replace(/\n}$/, '');
  writeFileSync(file, `${head},\n "cases": [\n${cases.map((c) => `  ${JSON.stringify(c)}`).join(',\n')}\n ]\n}\n`);
  const steps = cases.reduce((sum, c) => sum + c.steps.length, 0);
  console.log(`wrote ${file}: ${cases.length} sequences, ${steps} verdicts from ${source === 'release' ? `the release (${chunk})` : 'Pincer\'s detector'}; reached ${JSON.stringify(golden.reached)}`);
}

if (goldenFile) {
  writeGolden(goldenFile, Number(positional[0] ?? 300));
  process.exit(0);
}

const sequences = Number(positional[0] ?? 5000);
let steps = 0;
let agreeingSteps = 0;
let agreeingSequences = 0;
let sequencesWithChurn = 0;
const kinds = new Map();
const reached = new Map();
const kindOf = (verdict) => verdict.split(':').slice(0, 2).join(':');
for (const sequence of fc.sample(sequenceArb, { numRuns: sequences, seed: SEED })) {
  const ours = runOurs(sequence);
  const theirs = runReference(sequence);
  let allAgree = true;
  if (theirs.some((v) => v.includes('argument_churn'))) sequencesWithChurn += 1;
  for (const v of theirs) reached.set(v.split(':').slice(0, 2).join(':'), (reached.get(v.split(':').slice(0, 2).join(':')) ?? 0) + 1);
  for (let i = 0; i < sequence.length; i += 1) {
    steps += 1;
    if (ours[i] === theirs[i]) {
      agreeingSteps += 1;
      continue;
    }
    allAgree = false;
    const key = `ours ${kindOf(ours[i])} / release ${kindOf(theirs[i])}`;
    const entry = kinds.get(key) ?? { count: 0, example: undefined };
    entry.count += 1;
    entry.example ??= { step: i, ours: ours[i], release: theirs[i], calls: sequence.slice(0, i + 1).map((s) => `${s.tool} ${JSON.stringify(s.params)} → ${s.outcome.error ? `error ${s.outcome.error.message}` : JSON.stringify(s.outcome.result.details ?? s.outcome.result.content[0].text)}`) };
    kinds.set(key, entry);
  }
  if (allAgree) agreeingSequences += 1;
}

const pct = (a, b) => `${((100 * a) / b).toFixed(2)}%`;
console.log(`loop-detection parity with the release (${chunk}), default config`);
console.log(`  sequences: ${sequences} (${sequencesWithChurn} reach an argument-churn verdict in the release)`);
console.log(`  verdicts:  ${agreeingSteps}/${steps} agree (${pct(agreeingSteps, steps)})`);
console.log(`  sequences with every verdict equal: ${agreeingSequences}/${sequences} (${pct(agreeingSequences, sequences)})`);
console.log(`  release verdicts reached: ${[...reached].sort().map(([k, n]) => `${k} ${n}`).join(', ')}`);
for (const [key, { count, example }] of [...kinds].sort((a, b) => b[1].count - a[1].count)) {
  console.log(`\n  ${count} × ${key}\n    e.g. step ${example.step}: ours ${example.ours}, release ${example.release}`);
  for (const call of example.calls.slice(-6)) console.log(`      ${call}`);
}
process.exitCode = agreeingSteps === steps ? 0 : 1;
