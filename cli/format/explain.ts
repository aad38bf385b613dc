/**
 * The `pincer explain` story: each pipeline layer in order, whether the tool passed it, and for a
 * removal the rule, the entries that decided it and the config key to edit.
 */
import type { Colors } from './color.js';
import type { CallsBlocked, PolicyRemoval, ToolExplanation, ToolSet } from '../kernel.js';
import { suggestNames } from './suggest.js';

/**
 * The pipeline's layer order (the kernel's PolicyLayerId, in run order). Used only to tell which
 * layers a removed tool got through; a layer id missing here is printed without that context.
 */
export const LAYER_ORDER = [
  'profile',
  'providerProfile',
  'global',
  'globalProvider',
  'agent',
  'agentProvider',
  'group',
  'sender',
  'sandbox',
  'subagent',
  'inherited',
  'runtime',
] as const;

export function formatExplanation(explanation: ToolExplanation, toolSet: ToolSet, who: string, c: Colors): string {
  const name = c.bold(explanation.tool);
  if (explanation.present) {
    const tool = toolSet.tools.find((t) => t.name === explanation.tool);
    const plugin = tool?.pluginId ? ` (plugin ${tool.pluginId})` : '';
    const steps = explanation.layersPassed.map((layer, i) => `  ${i + 1}. ${c.green('✓')} ${layer}`);
    const blocked = explanation.callsBlocked
      ? ['', `${c.red('But every call is blocked')} (${explanation.callsBlocked.code}): ${describeBlock(explanation.callsBlocked)}`, "Fix or restart it: see 'pincer plugins'."]
      : [];
    return [
      `${name} is ${c.green('available')} to ${who}${plugin}.`,
      ...(steps.length ? ['', 'Layers that applied to this run, all of which admitted it:', ...steps] : ['', 'No policy layer applies to this run.']),
      ...blocked,
    ].join('\n');
  }
  if ('unavailable' in explanation) {
    const p = explanation.plugin;
    const last = p.lastError ? `\nLast error: ${p.lastError.code}: ${p.lastError.message}` : '';
    // Its plugin is enabled: the fix is the plugin's health, not enabling anything.
    return `${name} is ${c.red('unavailable')} to ${who}: its plugin ${c.bold(p.id)} is ${p.state}.${last}\nFix or restart the plugin: see 'pincer plugins'.`;
  }
  if ('unknown' in explanation) {
    const known = [...toolSet.tools.map((t) => t.name), ...toolSet.removed.map((r) => r.tool)];
    const guesses = suggestNames(explanation.tool, known);
    const would = explanation.wouldBeRemovedBy;
    const policyLine = would
      ? `Enabling a plugin that provides it would not be enough: the ${c.bold(would.layer)} layer (${would.label}) would remove it by its ${would.ruleKind === 'deny' ? 'deny list' : 'allow list'}${would.alsoAllowKey ? `; add it to ${would.alsoAllowKey} too` : would.configKey ? `; see ${would.configKey}` : ''}.`
      : `The policy of this run would allow it: enable a plugin that provides it.`;
    return [
      `${name} is ${c.yellow('unknown')}: no enabled plugin contributes a tool by that name${explanation.coreTool ? ' (it is a core tool id)' : ''}.`,
      policyLine,
      ...(guesses.length ? [`Did you mean: ${guesses.join(', ')}?`] : []),
      `Run 'pincer tools' for the tools of this run, or 'pincer plugins' for plugin health.`,
    ].join('\n');
  }
  return formatRemoval(explanation.removal, who, c);
}

/** `required plugin "audit" is failed: <its last error>` for each plugin that blocks the run. */
export function describeBlock(blocked: CallsBlocked): string {
  return blocked.plugins.map((p) => `required plugin "${p.pluginId}" is ${p.state}: ${p.reason}`).join('; ');
}

function formatRemoval(r: PolicyRemoval, who: string, c: Colors): string {
  const lines = [`${c.bold(r.tool)} is ${c.red('not available')} to ${who}: removed by the ${c.bold(r.layer)} layer.`, ''];
  const at = (LAYER_ORDER as readonly string[]).indexOf(r.layer);
  let step = 1;
  if (at > 0) {
    // Layers only narrow, so a tool removed at layer k got through every layer before it.
    for (const layer of LAYER_ORDER.slice(0, at)) lines.push(`  ${step++}. ${c.green('✓')} ${layer} ${c.dim('(passed or not set)')}`);
  }
  lines.push(`  ${step}. ${c.red('✗')} ${r.layer}  ${c.dim(`— ${r.label}`)}`);
  lines.push(`       rule:    ${r.ruleKind === 'deny' ? 'deny list matched' : 'allow list did not include it'}`);
  lines.push(`       entries: ${r.matchedRules.length ? r.matchedRules.join(', ') : '(empty list)'}`);
  if (r.configKey) lines.push(`       config:  ${r.configKey}`);
  lines.push('', `To change it: ${remedy(r)}`);
  return lines.join('\n');
}

export function remedy(r: PolicyRemoval): string {
  const key = r.configKey ?? `the ${r.layer} layer (not set in config; it comes from the run itself)`;
  if (r.ruleKind === 'deny') {
    const entries = r.matchedRules.map((e) => `"${e}"`).join(', ');
    return `remove ${entries || 'the matching entry'} from ${key} (deny wins over any allow).`;
  }
  if (r.alsoAllowKey) {
    // A profile is a fixed list named by a string: it cannot be edited, only extended.
    return `add "${r.tool}" (or its plugin's id, for all of that plugin's tools) to ${r.alsoAllowKey}; ${r.configKey ?? 'the profile'} names a fixed list, which alsoAllow extends.`;
  }
  return `add "${r.tool}" (or a group containing it) to ${key}.`;
}
