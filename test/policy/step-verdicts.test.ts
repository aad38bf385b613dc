import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOOL_NAME_ALIASES } from '../../protocol/vocabulary/index.js';
import { SurfaceCache } from '../../kernel/assembly/surface.js';
import { DEFAULT_CORE_TOOL_PLUGINS, type PluginHost } from '../../kernel/host/index.js';
import { applyPolicyPipeline, buildPolicySteps, createPolicyEngine, type PolicyResult, type PolicyStep, type PolicyTool } from '../../kernel/policy/index.js';
import { createRuntimeToolMatcher, createToolPolicyMatcher, normalizeToolPolicyName } from '../../sdk/policy/index.js';

// The pipeline keeps each layer's verdicts by tool index, per (frozen policy, frozen surface).
// These tests hold it to what planning everything afresh (unfrozen input, no cache) decides.

/** What a result says, in plain data (the explain function compared by what it answers). */
function outcome(result: PolicyResult<PolicyTool>, asked: readonly string[] = []) {
  return {
    tools: result.tools.map((tool) => [tool.name, tool.pluginId]),
    removals: result.removals.map((removal) => ({ ...removal })),
    effectiveAllowlist: [...result.effectiveAllowlist],
    warnings: [...result.warnings],
    layers: [...result.layers],
    explained: asked.map((name) => result.explain(name)),
  };
}

/** The same pipeline on unfrozen copies: nothing cached, every layer planned afresh. */
const fresh = (tools: readonly PolicyTool[], steps: readonly PolicyStep[]) =>
  applyPolicyPipeline(tools.map((tool) => ({ ...tool })), steps.map((step) => ({ ...step, policy: step.policy && { ...step.policy } })));

const stepsFor = (deny: string[], toolsAllow?: string[]) => buildPolicySteps({ tools: { deny }, sandboxed: false, run: { toolsAllow } });

describe('cached step verdicts', () => {
  it('never carry over to another surface of the same size (a plugin reordered its tools)', () => {
    const steps = stepsFor(['b', 'web']);
    const first = Object.freeze([{ name: 'a' }, { name: 'b' }, { name: 'c', pluginId: 'web' }, { name: 'd' }]);
    const second = Object.freeze([{ name: 'b' }, { name: 'c', pluginId: 'other' }, { name: 'd' }, { name: 'a' }]);
    expect(outcome(applyPolicyPipeline(first, steps)).tools).toEqual([['a', undefined], ['d', undefined]]);
    expect(outcome(applyPolicyPipeline(second, steps)).tools).toEqual([['c', 'other'], ['d', undefined], ['a', undefined]]);
    // And again, now that both surfaces have verdicts cached.
    expect(outcome(applyPolicyPipeline(first, steps))).toEqual(outcome(fresh(first, steps)));
    expect(outcome(applyPolicyPipeline(second, steps))).toEqual(outcome(fresh(second, steps)));
    // A list without plugin ids compiles to one matcher shared by both surfaces: its verdicts are not.
    const plain = stepsFor(['b']);
    expect(outcome(applyPolicyPipeline(first, plain)).tools.map(([name]) => name)).toEqual(['a', 'c', 'd']);
    expect(outcome(applyPolicyPipeline(second, plain)).tools.map(([name]) => name)).toEqual(['c', 'd', 'a']);
  });

  it('follow a plugin tool list change: the next surface is new, and so are its verdicts', () => {
    let tools = [{ name: 'keep_1', pluginId: 'p' }, { name: 'drop_1', pluginId: 'p' }, { name: 'keep_2', pluginId: 'q' }];
    let version = 1;
    const host = {
      get contributionsVersion() {
        return version;
      },
      contributedTools: () => tools.map((t) => ({ ...t, description: '', inputSchema: {}, family: 'x' })),
      coreToolDesignee: (name: string) => DEFAULT_CORE_TOOL_PLUGINS[name],
    } as unknown as PluginHost;
    const surfaces = new SurfaceCache(host, ['p', 'q']);
    const engine = createPolicyEngine({ tools: { deny: ['drop_*'] } });
    const run = { agentId: 'main' };
    const names = (result: PolicyResult<PolicyTool>) => result.tools.map((tool) => tool.name);
    const before = surfaces.get(undefined).tools;
    expect(names(engine.evaluate(before, run, false))).toEqual(['keep_1', 'keep_2']);
    expect(names(engine.evaluate(before, { ...run, toolsAllow: ['*', 'x'] }, false))).toEqual(['keep_1', 'keep_2']);

    // The plugin's list changes, to as many tools: one inserted first shifts the others by one.
    tools = [{ name: 'drop_0', pluginId: 'p' }, { name: 'keep_0', pluginId: 'p' }, { name: 'drop_1', pluginId: 'p' }];
    version++;
    const after = surfaces.get(undefined).tools;
    expect(after).not.toBe(before);
    for (const shape of [run, { ...run, toolsAllow: ['*', 'x'] }, { ...run, toolsAllow: ['*', 'y'] }]) {
      const result = engine.evaluate(after, shape, false);
      expect(names(result)).toEqual(['keep_0']);
      expect(result.removals.map((removal) => removal.tool)).toEqual(['drop_0', 'drop_1']);
      expect(result.effectiveAllowlist).toEqual(['keep_0']);
    }
  });

  it('decide as planning afresh does, for every surface, run shape and repeat (property)', () => {
    const name = fc.constantFrom('read', 'Read', ' read ', 'exec', 'bash', 'write', 'apply_patch', 'apply-patch', 'p_one', 'p_two', 'P_Two', 'q_x', 'search', 'tool_7', 'ünï', '');
    const tool = fc.record({ name, pluginId: fc.constantFrom(undefined, 'p', 'q', 'Web') }, { requiredKeys: ['name'] });
    const entry = fc.constantFrom('read', 'exec', 'bash', 'group:fs', 'group:plugins', 'p', 'web', '*', 'p_*', '*_two', 'write', 'absent');
    const list = fc.option(fc.array(entry, { maxLength: 4 }), { nil: undefined });
    fc.assert(
      fc.property(fc.array(tool, { maxLength: 12 }), fc.array(fc.record({ allow: list, deny: list }), { maxLength: 4 }), fc.array(list, { maxLength: 3 }), (toolList, policies, runtimes) => {
        const surface = Object.freeze(toolList.map((t) => Object.freeze({ ...t })));
        const layers = policies.map((p, i) => Object.freeze({ layer: 'global', label: `layer ${i}.allow`, policy: Object.freeze({ allow: p.allow && Object.freeze([...p.allow]), deny: p.deny && Object.freeze([...p.deny]) }) }) as PolicyStep);
        // Run shapes that share every layer but a last runtime cap, as new allowlists do.
        for (const allow of [undefined, ...runtimes]) {
          const steps = allow ? [...layers, Object.freeze({ layer: 'runtime', label: 'runtime toolsAllow', kind: 'cap', policy: Object.freeze({ allow: Object.freeze([...allow]) }) }) as PolicyStep] : layers;
          const asked = [...new Set(toolList.map((t) => t.name)), 'absent'];
          const expected = outcome(fresh(surface, steps), asked);
          expect(outcome(applyPolicyPipeline(surface, steps), asked)).toEqual(expected);
          expect(outcome(applyPolicyPipeline(surface, steps), asked)).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('normalizeToolPolicyName', () => {
  const reference = (name: string) => {
    const folded = name.trim().toLowerCase();
    return TOOL_NAME_ALIASES.get(folded) ?? folded;
  };

  it('answers as trim, lower-case and the alias table do, for folded names and all others (property)', () => {
    const char = fc.constantFrom('a', 'z', 'A', 'Z', '_', '-', '.', ':', '0', ' ', '\t', '\u00a0', '\ufeff', 'É', 'ß', 'İ', '\u007f', '*');
    const name = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.array(char, { maxLength: 8 }).map((chars) => chars.join('')), fc.constantFrom('bash', 'BASH', ' bash', 'apply-patch', 'cron', 'exec'));
    fc.assert(fc.property(name, (value) => normalizeToolPolicyName(value) === reference(value)), { numRuns: 2000 });
  });
});

describe('a matcher that allows every name', () => {
  it('still allows every name (no memo), and a cap of one restriction is that restriction', () => {
    for (const matches of [createToolPolicyMatcher({ allow: ['*'] }), createToolPolicyMatcher({}), createRuntimeToolMatcher(['*', 'absent']), createRuntimeToolMatcher(['  '])]) {
      for (const name of ['read', 'anything', '', 42, undefined]) expect(matches(name)).toBe(true);
    }
    const cap = createRuntimeToolMatcher(['read', 'p_*']);
    expect(['read', 'p_x', 'write', 'apply_patch'].map((name) => cap(name))).toEqual([true, true, false, false]);
    expect(createRuntimeToolMatcher([])('read')).toBe(false);
  });
});
