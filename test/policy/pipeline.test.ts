import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPolicyPipeline, buildPolicySteps, isSessionSandboxed, type PolicyStep } from '../../kernel/policy/index.js';
import { parseConfig } from '../../kernel/config/validate.js';

const core = ['ls', 'read', 'write', 'edit', 'apply_patch', 'exec', 'process', 'message', 'gateway', 'browser', 'sessions_spawn', 'session_status', 'automations', 'view_image'].map((name) => ({ name }));
const plugin = [{ name: 'search', pluginId: 'Web' }, { name: 'fetch', pluginId: 'web' }, { name: 'srv__q', pluginId: 'bundle-mcp' }];
const tools = [...core, ...plugin];
const names = (list: { name: string }[]) => list.map((t) => t.name);

function run(config: unknown, runContext: Parameters<typeof buildPolicySteps>[0]['run'] = {}, sandboxed = false) {
  const cfg = parseConfig(config);
  const agent = cfg.agents?.list?.[0];
  const steps = buildPolicySteps({ tools: cfg.tools, agentId: agent?.id, agentTools: agent?.tools, groups: cfg.groups, sandboxed, run: runContext });
  return applyPolicyPipeline(tools, steps);
}

describe('the policy pipeline', () => {
  it('keeps every tool when no layer has a policy', () => {
    const result = run({});
    expect(result.tools).toEqual(tools);
    expect(result.removals).toEqual([]);
  });

  it('applies the profile, then global deny, and records the layer and rule of each removal', () => {
    const result = run({ tools: { profile: 'coding', deny: ['exec'] } });
    expect(names(result.tools)).not.toContain('exec');
    expect(names(result.tools)).not.toContain('message');
    expect(result.explain('exec')).toMatchObject({ present: false, removal: { layer: 'global', ruleKind: 'deny', matchedRules: ['exec'], configKey: 'tools.deny' } });
    expect(result.explain('message')).toMatchObject({ present: false, removal: { layer: 'profile', ruleKind: 'allow', label: 'tools.profile (coding)' } });
    expect(result.explain('bash')).toMatchObject({ tool: 'exec', present: false });
    expect(result.explain('read')).toMatchObject({ present: true });
    expect(result.explain('no_such_tool')).toEqual({ tool: 'no_such_tool', present: false, unknown: true });
  });

  it('lets alsoAllow add to a profile and be additive to everything when there is no allow', () => {
    expect(names(run({ tools: { profile: 'coding', alsoAllow: ['message'] } }).tools)).toContain('message');
    expect(run({ tools: { alsoAllow: ['search'] } }).tools).toEqual(tools);
  });

  it('narrows by agent, provider, group and sender, in that order', () => {
    const config = {
      tools: { byProvider: { 'openai/gpt-x': { deny: ['browser'] }, openai: { deny: ['gateway'] } }, toolsBySender: { 'id:u1': { deny: ['write'] } } },
      groups: { g1: { tools: { deny: ['edit'] } } },
      agents: { list: [{ id: 'main', tools: { deny: ['ls'], byProvider: { OpenAI: { deny: ['process'] } } } }] },
    };
    const result = run(config, { provider: 'openai', model: 'GPT-X', groupId: 'g1', sender: { id: 'u1' } });
    const removedBy = Object.fromEntries(result.removals.map((r) => [r.tool, r.layer]));
    expect(removedBy).toEqual({ browser: 'globalProvider', ls: 'agent', process: 'agentProvider', edit: 'group', write: 'sender' });
    expect(result.explain('ls')).toMatchObject({ removal: { label: 'agents.main.tools.deny', configKey: 'agents.main.tools.deny' } });
  });

  it('expands plugin ids case-insensitively and group:plugins in allow and deny', () => {
    expect(names(run({ tools: { allow: ['read', 'WEB'] } }).tools)).toEqual(['read', 'search', 'fetch']);
    expect(names(run({ tools: { deny: ['group:plugins'] } }).tools)).toEqual(names(core));
    expect(names(run({ tools: { allow: ['bundle-mcp'] } }).tools)).toEqual(['srv__q']);
  });

  it('applies the sandbox layer only to sandboxed sessions, with its default deny and image rule', () => {
    const result = run({}, {}, true);
    expect(names(result.tools)).not.toContain('browser');
    expect(names(result.tools)).not.toContain('gateway');
    expect(names(result.tools)).toContain('view_image');
    expect(result.explain('browser')).toMatchObject({ removal: { layer: 'sandbox', ruleKind: 'deny', configKey: 'tools.sandbox.tools.deny' } });
    expect(names(run({ tools: { sandbox: { tools: { allow: ['browser', 'read'] } } } }, {}, true).tools)).toEqual(['read', 'browser', 'view_image']);
  });

  it('denies system tools to subagents and spawn tools to leaves', () => {
    const orchestrator = run({ tools: { subagents: { maxSpawnDepth: 2 } } }, { subagentDepth: 1 });
    expect(names(orchestrator.tools)).toContain('sessions_spawn');
    expect(names(orchestrator.tools)).not.toContain('gateway');
    const leaf = run({ tools: { subagents: { maxSpawnDepth: 2 } } }, { subagentDepth: 2 });
    expect(names(leaf.tools)).not.toContain('sessions_spawn');
  });

  it('never gives a child a tool its parent did not hold, even when the parent held none', () => {
    const parent = run({ tools: { allow: ['read', 'exec'] } });
    const child = run({}, { inheritedAllowlist: parent.effectiveAllowlist });
    expect(names(child.tools)).toEqual(['read', 'exec']);
    expect(run({}, { inheritedAllowlist: [] }).tools).toEqual([]);
  });

  it('disables every tool for an explicit empty runtime allowlist', () => {
    const result = run({}, { toolsAllow: [] });
    expect(result.tools).toEqual([]);
    expect(result.explain('read')).toMatchObject({ removal: { layer: 'runtime' } });
  });

  it('warns about unknown allowlist entries in every result, naming the config key and its layer', () => {
    const cfg = parseConfig({ tools: { allow: ['read', 'web_search', 'nope\u0007'] } });
    const steps = buildPolicySteps({ tools: cfg.tools, sandboxed: false, run: {} });
    const first = applyPolicyPipeline(tools, steps);
    const second = applyPolicyPipeline(tools, steps);
    expect(first.warnings).toHaveLength(1);
    expect(first.warnings[0]).toContain('tools.allow (layer global)');
    expect(first.warnings[0]).toContain('web_search, nope\\x07');
    expect(first.warnings[0]).toMatch(/core tools that are not available/);
    expect(second.warnings).toEqual(first.warnings);
  });

  it('does not warn about profile members that are unavailable in this runtime', () => {
    expect(run({ tools: { profile: 'coding' } }).warnings).toEqual([]);
  });

  it('skips tools with unreadable names and says at which index', () => {
    const result = applyPolicyPipeline([{ name: 'read' }, { name: '' }, { name: 42 as never }], []);
    expect(names(result.tools)).toEqual(['read']);
    expect(result.warnings).toEqual([expect.stringContaining('index 1'), expect.stringContaining('index 2')]);
  });

  it('never lets a layer add a tool (property)', () => {
    const entry = fc.constantFrom('read', 'exec', 'bash', 'group:fs', 'group:plugins', 'web', '*', 'e*', 'message');
    const policy = fc.record({ allow: fc.option(fc.array(entry), { nil: undefined }), deny: fc.option(fc.array(entry), { nil: undefined }) }, { requiredKeys: [] });
    fc.assert(fc.property(fc.array(policy, { maxLength: 5 }), (policies) => {
      const steps: PolicyStep[] = policies.map((p, i) => ({ layer: 'global', label: `layer ${i}`, policy: p }));
      let before = tools as { name: string }[];
      for (let i = 1; i <= steps.length; i++) {
        const after = applyPolicyPipeline(tools, steps.slice(0, i)).tools;
        expect(after.every((t) => before.includes(t))).toBe(true);
        before = after;
      }
    }), { numRuns: 200 });
  });
});

describe('the sandbox-mode decision', () => {
  const ctx = { agentId: 'Main' };
  it('never sandboxes with off and always with all', () => {
    expect(isSessionSandboxed('off', 'agent:main:group:x', ctx)).toBe(false);
    expect(isSessionSandboxed(undefined, 'agent:main:group:x', ctx)).toBe(false);
    expect(isSessionSandboxed('all', 'agent:main:main', ctx)).toBe(true);
  });

  it('sandboxes every non-main session with non-main, comparing main-key aliases', () => {
    for (const key of ['agent:main:main', ' AGENT:MAIN:MAIN ', 'main']) expect(isSessionSandboxed('non-main', key, ctx), key).toBe(false);
    expect(isSessionSandboxed('non-main', 'agent:main:telegram:group:42', ctx)).toBe(true);
    expect(isSessionSandboxed('non-main', 'home', { agentId: 'main', mainKey: 'home' })).toBe(false);
    expect(isSessionSandboxed('non-main', 'global', { agentId: 'main', scope: 'global' })).toBe(false);
  });
});
