#!/usr/bin/env node
/**
 * Differential check of the SDK policy primitives against the reference release.
 *
 * Not part of the test suite (the reference package is 300 MB): run it by hand after
 * `npm pack openclaw@2026.9.6 && tar xzf openclaw-2026.9.6.tgz`, then
 *   PINCER_REFERENCE_DIST=/path/to/package/dist node scripts/reference-parity.mjs [runs]
 * It generates inputs with fast-check and fails on the first disagreement.
 */
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import * as ours from '../dist/sdk/policy/index.js';

const dist = process.env.PINCER_REFERENCE_DIST;
if (!dist) {
  console.error('set PINCER_REFERENCE_DIST to the reference release dist/ folder');
  process.exit(2);
}
const chunk = (prefix) => join(dist, readdirSync(dist).find((f) => f.startsWith(prefix) && f.endsWith('.mjs')));
const match = await import(chunk('tool-policy-match-'));
const shared = await import(chunk('tool-policy-shared-'));
const plan = await import(chunk('attempt-tool-construction-plan-'));
const ref = {
  createToolPolicyMatcher: match.r,
  expandToolGroups: shared.o,
  attach: shared.r,
  applyEmbeddedAttemptToolsAllow: plan.t,
};
// The reference's bind splitter lives in a chunk that needs a private package; its rule is
// restated here from the published source so the oracle stays self-contained.
function refSplit(spec, options) {
  const sep = (s) => s.indexOf(':', /^[A-Za-z]:[\\/]/.test(s) ? 2 : 0);
  const separator = sep(spec);
  if (separator === -1) return null;
  const host = spec.slice(0, separator);
  const rest = spec.slice(separator + 1);
  const optionsStart = options?.allowWindowsContainerPath === true ? sep(rest) : rest.indexOf(':');
  if (optionsStart === -1) return { host, container: rest, options: '' };
  return { host, container: rest.slice(0, optionsStart), options: rest.slice(optionsStart + 1) };
}

const names = ['read', 'write', 'exec', 'bash', 'apply_patch', 'apply-patch', 'cron', 'automations', 'canvas', 'show_widget',
  'update_plan', 'progress_card', 'group:fs', 'group:runtime', 'group:openclaw', 'group:ui', 'group:plugins', 'group:automation',
  'browser', 'message', 'gateway', 'sessions_spawn', 'skills_read', 'tool_call', 'dispatch_action', 'bundle-mcp', 'srv__tool',
  'myplugin', 'MyPlugin', 'plug_a', 'plug_b', 'unknown_tool', '*', '', ' ', 'session_status', 'view_image', 'ls', 'edit'];
const nameArb = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...names) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...names), fc.constantFrom('', ' ', '  ', '\t'), fc.boolean()).map(([n, ws, up]) => ws + (up ? n.toUpperCase() : n) + ws) },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('', 're', 'ses', 'apply', 'group:', 'plug'), fc.constantFrom('*', '*_*', ''), fc.constantFrom('', 'ad', 'ions_*', 'patch', '.x', '(a)')).map(([a, b, c]) => a + b + c) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const listArb = fc.array(nameArb, { maxLength: 6 });
const optList = fc.option(listArb, { nil: undefined });

let failures = 0;
function same(label, input, a, b) {
  const ja = JSON.stringify(a);
  const jb = JSON.stringify(b);
  if (ja !== jb) {
    failures++;
    console.error(`MISMATCH ${label}\n input: ${JSON.stringify(input)}\n ours: ${ja}\n ref:  ${jb}`);
    if (failures > 10) process.exit(1);
  }
}
const runs = Number(process.argv[2] ?? 3000);

fc.assert(fc.property(optList, (list) => { same('expandToolGroups', list, ours.toolPolicy.expandToolGroups(list), ref.expandToolGroups(list)); }), { numRuns: runs });

fc.assert(fc.property(fc.option(fc.record({ allow: optList, deny: optList }, { requiredKeys: [] }), { nil: undefined }), fc.boolean(), fc.array(nameArb, { minLength: 1, maxLength: 8 }), (policy, wap, probes) => {
  const a = ours.toolPolicy.createToolPolicyMatcher(policy, wap);
  const b = ref.createToolPolicyMatcher(policy, wap);
  same('createToolPolicyMatcher', { policy, wap, probes }, probes.map(a), probes.map(b));
}), { numRuns: runs });

const toolArb = fc.record({ name: nameArb, plugin: fc.option(fc.constantFrom('myplugin', 'MyPlugin', ' plug_a ', 'bundle-mcp', ''), { nil: undefined }), aliases: fc.array(nameArb, { maxLength: 2 }) });
fc.assert(fc.property(fc.array(toolArb, { maxLength: 10 }), fc.option(fc.array(listArb, { minLength: 1, maxLength: 3 }), { nil: undefined }), fc.boolean(), fc.boolean(), fc.boolean(), (tools, restrictions, useMeta, useAliases, useIntersection) => {
  const mk = (attach) => {
    if (!restrictions) return undefined;
    if (useIntersection && restrictions.length > 1) return attach([...new Set(restrictions.flat())], restrictions);
    return restrictions[0];
  };
  const options = {
    ...(useMeta ? { toolMeta: (t) => (t.plugin === undefined ? undefined : { pluginId: t.plugin }) } : {}),
    ...(useAliases ? { toolAliases: (t) => t.aliases } : {}),
  };
  const a = ours.applyEmbeddedAttemptToolsAllow(tools, mk(ours.attachToolAllowlistIntersection), options);
  const b = ref.applyEmbeddedAttemptToolsAllow(tools, mk(ref.attach), options);
  same('applyEmbeddedAttemptToolsAllow', { tools, restrictions, useMeta, useAliases, useIntersection }, a.map((t) => tools.indexOf(t)), b.map((t) => tools.indexOf(t)));
}), { numRuns: runs });

const pathPart = fc.constantFrom('C:\\data', 'c:/x', 'D:', '\\\\srv\\share', '/home/u', 'rel', '', 'a:b', '/workspace', 'Z:\\', 'ro', 'rw,z', 'C:\\w');
fc.assert(fc.property(fc.array(pathPart, { maxLength: 4 }), fc.constantFrom(':', '::', ''), fc.boolean(), (parts, sep, win) => {
  const spec = parts.join(sep || ':');
  same('splitSandboxBindSpec', { spec, win }, ours.splitSandboxBindSpec(spec, { allowWindowsContainerPath: win }), refSplit(spec, { allowWindowsContainerPath: win }));
}), { numRuns: runs });

if (failures > 0) process.exit(1);
console.log(`reference parity: ${runs * 4} generated cases agree`);
