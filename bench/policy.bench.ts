/**
 * Policy hot paths: matcher build + 60 names, the runtime allowlist over 60 tools with 3
 * restrictions, and the whole pipeline over 60 tools from 8 plugins with every layer set.
 * Each is compared with a naive baseline (fresh regexes, no sets, no caches) in the same
 * run; set PINCER_REFERENCE_DIST to also measure the reference release side by side.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CORE_TOOL_DEFINITIONS } from '../protocol/vocabulary/index.js';
import { applyEmbeddedAttemptToolsAllow, intersectToolAllowlists, toolPolicy } from '../sdk/policy/index.js';
import { applyPolicyPipeline, buildPolicySteps, createPolicyEngine } from '../kernel/policy/index.js';
import { parseConfig } from '../kernel/config/validate.js';
import { measure, printTable, ratio } from './lib/measure.js';

const coreNames = CORE_TOOL_DEFINITIONS.map((t) => t.id).slice(0, 36);
const pluginTools = Array.from({ length: 24 }, (_, i) => ({ name: `p${i % 8}_tool_${i}`, pluginId: `plugin-${i % 8}` }));
const tools = [...coreNames.map((name) => ({ name })), ...pluginTools];
const names = tools.map((t) => t.name);
const policy = { allow: ['group:fs', 'group:runtime', 'sessions_*', 'web_*', 'plugin-1', 'p2_*', 'message', 'Bash'], deny: ['process', '*_spawn', 'group:ui'] };
/** A typical allow list: groups, globs, plugin ids and plain names. */
const groupList = ['group:fs', 'group:runtime', 'group:web', 'sessions_*', 'plugin-1', 'read', 'Bash', 'group:plugins'];
const restriction3 = intersectToolAllowlists([['group:fs', 'exec', 'sessions_*', 'p*'], ['*_list', 'read', 'write', 'p1_*', 'exec', 'sessions_history'], ['read', 'exec', 'sessions_list', 'p1_tool_9']]);

/** The obvious implementation: compile every entry into a fresh regex for every name. */
function naiveMatcher(p: { allow: string[]; deny: string[] }) {
  const expand = (list: string[]) => toolPolicy.expandToolGroups(list);
  const toRegex = (e: string) => new RegExp(`^${e.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*')}$`);
  return (name: string) => {
    const n = name.trim().toLowerCase();
    if (expand(p.deny).some((e) => toRegex(e).test(n))) return false;
    const allow = expand(p.allow);
    return allow.length === 0 || allow.some((e) => toRegex(e).test(n));
  };
}

const fullConfig = parseConfig({
  tools: {
    profile: 'coding', alsoAllow: ['plugin-3', 'p4_*'], allow: ['*'], deny: ['gateway'],
    byProvider: { openai: { profile: 'coding', alsoAllow: ['group:plugins'] }, 'openai/gpt-5': { deny: ['browser'] } },
    toolsBySender: { 'id:u1': { deny: ['write'] } }, sandbox: { tools: { alsoAllow: ['group:plugins'] } }, subagents: { maxSpawnDepth: 3 },
  },
  groups: { g1: { tools: { deny: ['edit'] } } },
  agents: { list: [{ id: 'main', tools: { deny: ['ls'], byProvider: { openai: { deny: ['process'] } } } }] },
});
const run = { provider: 'openai', model: 'gpt-5', groupId: 'g1', sender: { id: 'u1' }, subagentDepth: 1, inheritedAllowlist: names };

const frozenTools = Object.freeze(tools.map((t) => Object.freeze({ ...t })));
const engine = createPolicyEngine(fullConfig);

/** Warm: the kernel's path, a frozen tool surface and a run shape seen before. */
function assembleWarm() {
  return engine.evaluate(frozenTools, { ...run, agentId: 'main' }, true);
}

/** Cold: steps built afresh and an unfrozen tool list, so nothing is reused between runs. */
function assembleOnce() {
  const agent = fullConfig.agents!.list![0];
  const steps = buildPolicySteps({ tools: fullConfig.tools, agentId: agent.id, agentTools: agent.tools, groups: fullConfig.groups, sandboxed: true, run });
  return applyPolicyPipeline(tools, steps);
}

async function loadReference() {
  const dist = process.env.PINCER_REFERENCE_DIST;
  if (!dist) return undefined;
  const chunk = (prefix: string) => pathToFileURL(join(dist, readdirSync(dist).find((f) => f.startsWith(prefix) && f.endsWith('.mjs'))!)).href;
  const match = await import(chunk('tool-policy-match-'));
  const shared = await import(chunk('tool-policy-shared-'));
  const plan = await import(chunk('attempt-tool-construction-plan-'));
  const restrictions = [['group:fs', 'exec', 'sessions_*', 'p*'], ['*_list', 'read', 'write', 'p1_*', 'exec', 'sessions_history'], ['read', 'exec', 'sessions_list', 'p1_tool_9']];
  return { matcher: match.r, apply: plan.t, expand: shared.o as (list: string[]) => string[], allow: shared.r([...new Set(restrictions.flat())], restrictions) };
}

export async function runPolicyBench() {
  const reference = await loadReference();
  const tasks: Record<string, () => unknown> = {
    'matcher build + 60 names': () => { const m = toolPolicy.createToolPolicyMatcher(policy); for (const n of names) m(n); },
    'naive matcher + 60 names': () => { const m = naiveMatcher(policy); for (const n of names) m(n); },
    'toolsAllow 60 tools x 3 restrictions': () => applyEmbeddedAttemptToolsAllow(tools, restriction3),
    'naive toolsAllow 60 tools x 3': () => tools.filter((t) => restriction3 && [0, 1, 2].every((i) => naiveMatcher({ allow: [['group:fs', 'exec', 'sessions_*', 'p*'], ['*_list', 'read', 'write', 'p1_*', 'exec', 'sessions_history'], ['read', 'exec', 'sessions_list', 'p1_tool_9']][i], deny: [] })(t.name))),
    'pipeline 60 tools, 8 plugins, all layers (cold)': assembleOnce,
    'pipeline 60 tools, 8 plugins, all layers (warm)': assembleWarm,
    expandToolGroups: () => toolPolicy.expandToolGroups(groupList),
  };
  if (reference) {
    tasks['reference matcher + 60 names'] = () => { const m = reference.matcher(policy); for (const n of names) m(n); };
    tasks['reference toolsAllow 60 tools x 3'] = () => reference.apply(tools, reference.allow);
    tasks['reference expandToolGroups'] = () => reference.expand(groupList);
  }
  const r = await measure(tasks);
  const rows = Object.values(r).map((m) => ({ task: m.name, 'median µs': Math.round(m.medianUs * 100) / 100 }));
  return {
    rows,
    ratios: {
      matcherVsNaive: ratio(r['matcher build + 60 names'], r['naive matcher + 60 names']),
      toolsAllowVsNaive: ratio(r['toolsAllow 60 tools x 3 restrictions'], r['naive toolsAllow 60 tools x 3']),
      ...(reference ? {
        matcherVsReference: ratio(r['matcher build + 60 names'], r['reference matcher + 60 names']),
        toolsAllowVsReference: ratio(r['toolsAllow 60 tools x 3 restrictions'], r['reference toolsAllow 60 tools x 3']),
      } : {}),
    },
    expandToolGroups: reference
      ? { value: ratio(r.expandToolGroups!, r['reference expandToolGroups']!), figure: `${r.expandToolGroups!.medianUs.toFixed(2)} vs ${r['reference expandToolGroups']!.medianUs.toFixed(2)} µs` }
      : { figure: `${r.expandToolGroups!.medianUs.toFixed(2)} µs (ours alone)` },
    pipelineColdMedianUs: r['pipeline 60 tools, 8 plugins, all layers (cold)'].medianUs,
    pipelineWarmMedianUs: r['pipeline 60 tools, 8 plugins, all layers (warm)'].medianUs,
    pipelineLayers: assembleOnce().layers.length,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runPolicyBench();
  printTable('policy', result.rows);
  console.log('ratios (lower is faster):', result.ratios, `pipeline layers: ${result.pipelineLayers}`);
}
