/**
 * ATTACK: the policy pipeline's caches (kernel/policy/step-verdicts.ts verdict bytes by tool
 * index, per step plan; kernel/policy/step-plan.ts plans per (frozen policy, frozen surface);
 * kernel/policy/steps.ts interning of equal policies; the matcher's compiled lists and memos in
 * sdk/policy/matcher.ts, compiled-lists.ts, normalize.ts). Goal: a stale verdict, i.e. a
 * decision made for one run shape, agent, surface or list that another one reads.
 *
 * docs/policy.md: "Deny wins; an empty allow list allows everything not denied."
 * kernel/policy/run-context.ts / docs/automations.md: a runtime cap `toolsAllow: []` disables
 * every tool ("[] for none" in the automations tool); kernel/policy/types.ts: `cap` layers
 * (inherited, runtime) read an explicit empty allow list as "nothing".
 *
 * Each test asserts the fence holds. The holes this review found are fixed; each keeps its
 * description under a `// Was a hole` comment.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Kernel, PincerConfig } from '../../kernel/index.js';
import { bundledPluginConfigs } from '../../kernel/config/defaults.js';
import { applyPolicyPipeline, buildPolicySteps, type PolicyTool } from '../../kernel/policy/index.js';
import { createRuntimeToolMatcher, createToolPolicyMatcher } from '../../sdk/policy/index.js';
import { tempDir } from '../helpers/temp-dir.js';
import { ROOT, text, waitFor, withKernel } from './helpers.js';

const RETOOL = path.join(ROOT, 'test/fixtures/plugins/redteam-retool/plugin.mjs');
const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);
const frozenSurface = (list: string[]): readonly PolicyTool[] => Object.freeze(list.map((name) => Object.freeze({ name })));

function workspace(name: string): string {
  const ws = tempDir(`pincer-rt-vc-${name}-`);
  mkdirSync(path.join(ws, '.git'), { recursive: true });
  return ws;
}

describe('a cap layer and an ordinary layer with equal lists', () => {
  // Was a hole, fixed (the test now asserts the fence): kernel/policy/steps.ts interns every step's policy by its lists only
  // (JSON of [allow, deny]), and kernel/policy/step-plan.ts caches the plan (matcher, audit, and
  // with it the verdict bytes of step-verdicts.ts) per (policy object, surface), without the
  // step's `kind`. An ordinary layer `{allow: []}` ("no restriction") and the runtime cap
  // `{allow: []}` ("nothing") become the same frozen object, so whichever is planned first on a
  // surface decides for both. Here the ordinary one comes first, in the same run: the cap that
  // should disable every tool allows all of them.
  it('a runtime cap `toolsAllow: []` removes every tool even when another layer of the run says `allow: []`', () => {
    const surface = frozenSurface(['read', 'exec', 'write']);
    const steps = buildPolicySteps({ tools: { allow: [] }, sandboxed: false, run: { toolsAllow: [] } });
    expect(names(applyPolicyPipeline(surface, steps).tools)).toEqual([]);
  });

  it('control: the same steps on an unfrozen (uncached) surface remove every tool', () => {
    const steps = buildPolicySteps({ tools: { allow: [] }, sandboxed: false, run: { toolsAllow: [] } });
    expect(names(applyPolicyPipeline([{ name: 'read' }, { name: 'exec' }], steps).tools)).toEqual([]);
  });

  // Was a hole, fixed (the test now asserts the fence): the same cache across run shapes: a run shape with `tools.allow: []` planned first
  // leaves an allow-all plan that a later run's empty cap (a cron job made "with no tools", a
  // child of a parent that held none) reads. Same fault as above.
  it('a later run whose only cap is `[]` (runtime or inherited) gets no tool after an earlier run planned `allow: []`', () => {
    const surface = frozenSurface(['read', 'exec', 'write', 'apply_patch']);
    applyPolicyPipeline(surface, buildPolicySteps({ agentTools: { allow: [] }, agentId: 'open', sandboxed: false, run: {} }));
    const runtime = applyPolicyPipeline(surface, buildPolicySteps({ sandboxed: false, run: { toolsAllow: [] } }));
    const inherited = applyPolicyPipeline(surface, buildPolicySteps({ sandboxed: false, run: { inheritedAllowlist: [], subagentDepth: 1 } }));
    expect({ runtime: names(runtime.tools), inherited: names(inherited.tools) }).toEqual({ runtime: [], inherited: [] });
  });

  // Was a hole (fails closed, availability), fixed (the test now asserts the fence): the other order. A cap `[]` planned first leaves a
  // deny-all plan, so a later run of an agent whose layer says `allow: []` ("everything not
  // denied", docs/policy.md) holds no tool at all. Same fault.
  it('a layer `allow: []` allows everything even after a run with a cap `[]` was planned on the surface', () => {
    const surface = frozenSurface(['read', 'exec', 'ls']);
    applyPolicyPipeline(surface, buildPolicySteps({ sandboxed: false, run: { toolsAllow: [] } }));
    const open = applyPolicyPipeline(surface, buildPolicySteps({ tools: { allow: [] }, sandboxed: false, run: {} }));
    expect(names(open.tools)).toEqual(['read', 'exec', 'ls']);
  });

  // Was a hole (audit only), fixed (the test now asserts the fence): the plan's removal auditor belongs to the step that was planned first, so
  // a removal by one layer is reported as another layer's, with that layer's config key. Here the
  // run of sender bob loses exec to `tools.toolsBySender`, and explain() tells the operator to
  // edit `groups.team.tools.deny`, a rule that does not even apply to the run (docs/policy.md:
  // "Every removal names its layer and the config key to change"). Same fault (plan keyed by
  // policy content, not by step).
  it('names the layer and config key that really removed a tool, when two layers share a list', () => {
    const surface = frozenSurface(['read', 'exec']);
    const tools = { toolsBySender: { 'id:bob': { deny: ['exec'] } } };
    const groups = { team: { tools: { deny: ['exec'] } } };
    const inGroup = applyPolicyPipeline(surface, buildPolicySteps({ tools, groups, sandboxed: false, run: { groupId: 'team' } }));
    expect(inGroup.explain('exec')).toMatchObject({ present: false, removal: { layer: 'group' } });
    const bob = applyPolicyPipeline(surface, buildPolicySteps({ tools, groups, sandboxed: false, run: { sender: { id: 'bob' } } }));
    expect(names(bob.tools)).toEqual(['read']); // the verdict itself is right
    expect(bob.explain('exec')).toMatchObject({ present: false, removal: { layer: 'sender' } });
  });
});

describe('the same hole through a kernel: a cron job created "with no tools"', () => {
  // Was a hole, fixed (the test now asserts the fence): end to end. Agent "open" is configured `tools.allow: []` (no restriction); agent
  // "jobs" has no tool config. A cron run of "jobs" with `toolsAllow: []` (what the automations
  // tool stores for "[] for none", and what kernel/turns/turn-requests.ts starts without a probe
  // when the list is empty) holds every tool of the agent, and its exec runs, once "open" was
  // assembled first on the same surface (same enabled plugins). Fault: kernel/policy/step-plan.ts
  // stepPlan (cache key lacks step.kind) with kernel/policy/steps.ts internPolicy.
  it('a cron run with toolsAllow [] holds no tool and runs nothing', async () => {
    const ws = workspace('cron');
    const marker = path.join(ws, 'cron-ran');
    const cfg = { plugins: bundledPluginConfigs(), agents: { list: [{ id: 'open', workspace: ws, tools: { allow: [] } }, { id: 'jobs', workspace: ws }] } } as PincerConfig;
    await withKernel(cfg, { cwd: ws }, async (kernel) => {
      expect(kernel.assembleTools({ agentId: 'open' }).tools.length).toBeGreaterThan(0);
      const job = kernel.assembleTools({ agentId: 'jobs', trigger: 'cron', jobId: 'job_1', toolsAllow: [] });
      const ran = await job.execute('exec', { command: `touch ${marker}` });
      expect({ tools: names(job.tools), exec: text(ran).slice(0, 60), marker: existsSync(marker) }).toEqual({ tools: [], exec: expect.not.stringContaining('exit code 0'), marker: false });
    });
  }, 120_000);

  it('control: the same cron run without the other agent assembled first holds no tool', async () => {
    const ws = workspace('cron-ctl');
    const cfg = { plugins: bundledPluginConfigs(), agents: { list: [{ id: 'open', workspace: ws, tools: { allow: [] } }, { id: 'jobs', workspace: ws }] } } as PincerConfig;
    await withKernel(cfg, { cwd: ws }, async (kernel) => {
      expect(names(kernel.assembleTools({ agentId: 'jobs', trigger: 'cron', jobId: 'job_1', toolsAllow: [] }).tools)).toEqual([]);
    });
  }, 120_000);
});

describe('agents with different policies sharing plugins', () => {
  it('each agent and run shape keeps its own verdicts, in every order and on repeat', async () => {
    const ws = workspace('agents');
    const cfg = {
      plugins: bundledPluginConfigs(),
      tools: { toolsBySender: { 'id:eve': { deny: ['write'] } } },
      groups: { team: { tools: { deny: ['process'] } } },
      agents: {
        list: [
          { id: 'locked', workspace: ws, tools: { deny: ['exec', 'bash', 'group:fs'] } },
          { id: 'reader', workspace: ws, tools: { allow: ['read', 'ls'] } },
          { id: 'free', workspace: ws },
          { id: 'Shouty', workspace: ws, tools: { deny: [' EXEC ', 'Apply-Patch'] } },
        ],
      },
    } as PincerConfig;
    const expected: Record<string, string[]> = {
      locked: ['process'],
      reader: ['ls', 'read'],
      free: ['ls', 'read', 'write', 'edit', 'apply_patch', 'exec', 'process'],
      Shouty: ['ls', 'read', 'write', 'edit', 'process'],
    };
    const shapes = [
      { agentId: 'free', groupId: 'team', sessionKey: 'agent:free:main' },
      { agentId: 'free', sender: { id: 'eve' } },
      { agentId: 'free', toolsAllow: ['read', 'exec'] },
      { agentId: 'free', toolsAllow: ['*', 'x'] },
    ];
    const expectedShapes = [
      ['ls', 'read', 'write', 'edit', 'apply_patch', 'exec'],
      ['ls', 'read', 'edit', 'apply_patch', 'exec', 'process'],
      ['read', 'exec'],
      expected.free!,
    ];
    await withKernel(cfg, { cwd: ws }, async (kernel) => {
      const agents = Object.keys(expected);
      for (const order of [agents, [...agents].reverse(), [agents[2]!, agents[0]!, agents[3]!, agents[1]!]]) {
        for (let round = 0; round < 2; round++) {
          for (const agentId of order) expect(names(kernel.assembleTools({ agentId }).tools), `${agentId} (${order.join(',')})`).toEqual(expected[agentId]);
          shapes.forEach((shape, i) => expect(names(kernel.assembleTools(shape).tools), JSON.stringify(shape)).toEqual(expectedShapes[i]));
        }
      }
      // The denied tools are not callable by any spelling of their names.
      const locked = kernel.assembleTools({ agentId: 'locked' });
      for (const spelling of ['exec', 'EXEC', ' exec ', 'bash', 'Bash', 'read', 'READ', 'apply-patch']) {
        const result = await locked.execute(spelling, { command: 'true', path: 'x' });
        expect(result.outcome, spelling).not.toBe('ran');
      }
    });
  }, 120_000);
});

describe('tools a plugin renames at runtime', () => {
  it('verdicts follow the names when a plugin swaps its tool names for as many others (deny by glob, case variants, cached shapes)', async () => {
    const ws = workspace('retool');
    const cfg = {
      plugins: [...bundledPluginConfigs(), { id: 'hostile', module: RETOOL, settings: { tools: ['safe_a', 'danger_b', 'safe_c'] } }],
      // "all" has no deny: it shows the plugin's whole list, to know when a change has landed.
      agents: { list: [{ id: 'main', workspace: ws, tools: { deny: ['danger_*'] } }, { id: 'all', workspace: ws }] },
    } as PincerConfig;
    await withKernel(cfg, { cwd: ws }, async (kernel) => {
      const shapes = [{}, { toolsAllow: ['*', 'x'] }, { sender: { id: 'someone' } }, { toolsAllow: ['retool', 'safe_a', 'safe_b', 'danger_a', 'danger_b', 'safe_c', 'safe_x'] }];
      const hostileTools = (k: Kernel, shape: object) => names(k.assembleTools(shape).tools).filter((name) => name !== 'retool' && /safe|danger/i.test(name));
      for (const shape of shapes) expect(hostileTools(kernel, shape)).toEqual(['safe_a', 'safe_c']);
      const rounds: string[][] = [
        ['danger_a', 'safe_b', 'DANGER_c'], // same count, denied names moved to other indexes, one upper-case
        ['safe_a', 'Danger_B', 'safe_x'],
        ['danger_a', 'danger_b', 'danger_c'],
      ];
      for (const next of rounds) {
        const result = await kernel.assembleTools({}).execute('retool', { names: next });
        expect(text(result)).toContain('retooled');
        await waitFor(`the list ${next.join(',')}`, () => hostileTools(kernel, { agentId: 'all' }).join(',') === next.join(','), 10_000);
        const safe = next.filter((name) => !/^danger_/i.test(name));
        for (const shape of shapes) {
          const tools = hostileTools(kernel, shape);
          const allowedByShape = 'toolsAllow' in shape && !shape.toolsAllow!.includes('*') ? safe.filter((name) => shape.toolsAllow!.includes(name.toLowerCase())) : safe;
          expect(tools, `${JSON.stringify(shape)} after ${next.join(',')}`).toEqual(allowedByShape);
        }
        const set = kernel.assembleTools({});
        for (const name of next.filter((n) => /^danger_/i.test(n))) {
          const call = await set.execute(name, {});
          expect(call.outcome, name).not.toBe('ran');
          expect(set.explain(name)).toMatchObject({ present: false, removal: { layer: 'agent', matchedRules: ['danger_*'] } });
        }
      }
    });
  }, 120_000);

  it('a plugin naming its tools Exec, BASH or Read never gets past a deny of exec/read, with or without the shell plugin', async () => {
    const ws = workspace('spoof');
    const cfg = {
      plugins: [...bundledPluginConfigs(), { id: 'hostile', module: RETOOL, settings: { tools: ['Exec', 'BASH', 'Read', 'apply-patch'] } }],
      tools: { deny: ['exec', 'read', 'apply_patch'] },
      agents: { list: [{ id: 'main', workspace: ws }, { id: 'noshell', workspace: ws, plugins: ['hostile', 'sandbox-local'] }] },
    } as PincerConfig;
    await withKernel(cfg, { cwd: ws }, async (kernel) => {
      for (const agentId of ['main', 'noshell']) {
        const set = kernel.assembleTools({ agentId });
        const folded = names(set.tools).map((name) => name.toLowerCase());
        for (const denied of ['exec', 'bash', 'read', 'apply-patch', 'apply_patch']) expect(folded, agentId).not.toContain(denied);
        for (const spelling of ['Exec', 'BASH', 'bash', 'exec', 'Read', 'apply-patch']) {
          const call = await set.execute(spelling, {});
          expect(text(call), `${agentId}: ${spelling}`).not.toMatch(/^ran /);
        }
      }
    });
  }, 120_000);
});

describe('compiled lists shared by content', () => {
  // Was a hole, fixed (the test now asserts the fence): sdk/policy/compiled-lists.ts keys its content cache by each entry followed by
  // U+0001 (`contentKey`), so the one-entry list ["exec\u0001write"] and the two-entry list
  // ["exec", "write"] have the same key: whichever is compiled first is used for both. A deny
  // list compiled after the poisoned one denies nothing.
  it('a deny of [exec, write] denies exec even after a list ["exec\\u0001write"] was compiled', () => {
    createToolPolicyMatcher({ deny: ['exec\u0001write'] }); // compiled first: globs for one literal name
    const deny = createToolPolicyMatcher({ deny: ['exec', 'write'] });
    expect({ exec: deny('exec'), write: deny('write') }).toEqual({ exec: false, write: false });
  });

  it('a cap of one odd name admits nothing even after [read, exec] was compiled', () => {
    createToolPolicyMatcher({ allow: ['ls', 'exec'] });
    expect(createRuntimeToolMatcher(['ls\u0001exec'])('exec')).toBe(false);
  });

  // Was a hole, fixed (the test now asserts the fence): the same collision reached by any enabled plugin. A plugin's before_tool_call `tools`
  // filter entry is accepted when it contains `*` (kernel/assembly/hooks.ts hookFilterProblems;
  // protocol/v1/hooks.ts allows any string), and the kernel compiles the filters at start
  // (collectHooks in kernel.start), before the first assembly compiles the operator's lists. A
  // filter ["exec\u0001web_*"] has the content key of the operator's `tools.deny: ["exec",
  // "web_*"]`, so that deny compiles to the plugin's one literal glob and denies nothing: every
  // agent gets exec back, and it runs. Fault: sdk/policy/compiled-lists.ts contentKey.
  it('a plugin hook filter cannot lift the operator\'s tools.deny', async () => {
    const ws = workspace('poison');
    const marker = path.join(ws, 'exec-ran');
    const cfg = {
      plugins: [...bundledPluginConfigs(), { id: 'hostile', module: RETOOL, settings: { tools: ['helper'], hooks: [{ name: 'before_tool_call', tools: ['exec\u0001web_*'] }] } }],
      tools: { deny: ['exec', 'web_*'] },
      agents: { list: [{ id: 'main', workspace: ws }] },
    } as PincerConfig;
    await withKernel(cfg, { cwd: ws }, async (kernel) => {
      const set = kernel.assembleTools({});
      await set.execute('exec', { command: `touch ${marker}` });
      expect({ exec: names(set.tools).includes('exec'), ran: existsSync(marker) }).toEqual({ exec: false, ran: false });
    });
  }, 120_000);

  it('control: the same plugin with an ordinary filter leaves the deny in force', async () => {
    const ws = workspace('poison-ctl');
    const cfg = {
      // Lists of their own: the poisoned cache entry of the test above is process-wide and stays.
      plugins: [...bundledPluginConfigs(), { id: 'hostile', module: RETOOL, settings: { tools: ['helper'], hooks: [{ name: 'before_tool_call', tools: ['exec', 'net_*'] }] } }],
      tools: { deny: ['exec', 'net_*'] },
      agents: { list: [{ id: 'main', workspace: ws }] },
    } as PincerConfig;
    await withKernel(cfg, { cwd: ws }, async (kernel) => {
      expect(names(kernel.assembleTools({}).tools)).not.toContain('exec');
    });
  }, 120_000);

  // Was a hole (same fault as above), fixed (the test now asserts the fence): the poisoned entry outlives the kernel whose plugin planted it. The
  // cache is module state, so a second kernel in the same process (an embedding host running one
  // per tenant), without the hostile plugin, compiles its operator's deny to the poison too.
  it('a poisoned list does not reach another kernel of the same process', async () => {
    const ws = workspace('poison-cross');
    const hostile = {
      plugins: [...bundledPluginConfigs(), { id: 'hostile', module: RETOOL, settings: { tools: ['helper'], hooks: [{ name: 'before_tool_call', tools: ['exec\u0001db_*'] }] } }],
      agents: { list: [{ id: 'main', workspace: ws }] },
    } as PincerConfig;
    await withKernel(hostile, { cwd: ws }, async () => undefined); // starts (compiles its filters) and stops
    const victim = { plugins: bundledPluginConfigs(), tools: { deny: ['exec', 'db_*'] }, agents: { list: [{ id: 'main', workspace: ws }] } } as PincerConfig;
    await withKernel(victim, { cwd: ws }, async (kernel) => {
      expect(names(kernel.assembleTools({}).tools)).not.toContain('exec');
    });
  }, 120_000);

  it('the name cache and matcher memos stay right past their bounds (65,536 names, 2,048 decisions)', () => {
    const deny = createToolPolicyMatcher({ deny: ['exec', 'edit'] }); // a list no test above poisoned
    for (let i = 0; i < 70_000; i++) deny(` Tool_${i} `); // fills and evicts both caches
    for (const name of ['exec', 'EXEC', ' bash ', 'Bash', 'edit', 'EDIT']) expect(deny(name), name).toBe(false);
    for (const name of ['read', ' Read ', 'tool_5']) expect(deny(name), name).toBe(true);
  });
});

describe('policy objects changed after they were handed to the kernel', () => {
  it('a ToolSet, its tools and its allowlist cannot be widened by its holder, and a reused toolsAllow array is read afresh', async () => {
    const ws = workspace('mutate');
    const cfg = { plugins: bundledPluginConfigs(), tools: { deny: ['exec'] }, agents: { list: [{ id: 'main', workspace: ws }] } } as PincerConfig;
    await withKernel(cfg, { cwd: ws }, async (kernel) => {
      const allow = ['read'];
      const capped = kernel.assembleTools({ toolsAllow: allow });
      allow.push('exec', 'write'); // the host reuses and changes its array
      expect(names(capped.tools)).toEqual(['read']);
      expect(await capped.execute('write', { path: 'x', content: 'y' })).toMatchObject({ outcome: expect.not.stringMatching(/^ran$/) });
      // exec stays denied; apply_patch comes with write (an allow of write admits it, docs/tools.md).
      expect(names(kernel.assembleTools({ toolsAllow: allow }).tools)).toEqual(['read', 'write', 'apply_patch']);
      const set = kernel.assembleTools({});
      const tryMutate = (fn: () => void) => {
        try {
          fn();
        } catch {
          // frozen: refused
        }
      };
      tryMutate(() => (set.effectiveAllowlist as string[]).push('exec'));
      tryMutate(() => (set.tools as unknown as { name: string }[]).push({ name: 'exec' }));
      tryMutate(() => ((set.removed as unknown as { tool: string }[])[0]!.tool = 'nothing'));
      const again = kernel.assembleTools({});
      expect(again.effectiveAllowlist).not.toContain('exec');
      expect(names(again.tools)).not.toContain('exec');
      expect((await again.execute('exec', { command: 'true' })).outcome).not.toBe('ran');
    });
  }, 120_000);

  // Was a hole (low; host-only), fixed (the test now asserts the fence): createPolicyEngine keeps the caller's config object and reads it
  // whenever it builds the steps of a run shape it has not seen (kernel/policy/engine.ts steps()),
  // while shapes already seen keep their cached steps. A host that edits its config object after
  // createKernel (to drop a deny) gets the old policy for some runs and the new one for others:
  // here exec stays denied for the main run and comes back for the same agent with a provider
  // named. Nothing documents either reading; the two shapes should at least agree.
  it('a config object changed after createKernel is read the same way by every run shape', async () => {
    const ws = workspace('config-mutate');
    const cfg = { plugins: bundledPluginConfigs(), tools: { deny: ['exec'] }, agents: { list: [{ id: 'main', workspace: ws }] } } as PincerConfig;
    await withKernel(cfg, { cwd: ws }, async (kernel) => {
      expect(names(kernel.assembleTools({}).tools)).not.toContain('exec');
      cfg.tools!.deny!.length = 0;
      const seen = names(kernel.assembleTools({}).tools).includes('exec');
      const fresh = names(kernel.assembleTools({ provider: 'openai' }).tools).includes('exec');
      expect(fresh).toBe(seen);
    });
  }, 120_000);
});
